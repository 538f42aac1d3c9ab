import type { Command } from "../command.ts";
import { flag } from "../args.ts";
import { pendingOperations } from "../../store/ledger.ts";
import { carryOutUndo, planUndo } from "../../store/undo.ts";
import { InputError, RefusedError } from "../../errors.ts";
import { out, printJson } from "../output.ts";
import { holdingSignals } from "../../io/interrupt.ts";
import { applyRetention } from "../../store/prune.ts";
import { prunedSummary } from "./prune.ts";
import { exitAfterSignals } from "../signals.ts";

const MIN_PREFIX = 6;

export const undo: Command = {
  usage: "session-bridge undo [OPERATION] [--list] [--dry-run] [--force] [--json]",
  help: `  OPERATION    an operation id (or 6+ character prefix) from --list; default: the newest
  --list       list the handoffs that can be undone
  --dry-run    show what would be removed or restored, and change nothing
  --force      also remove files that changed since the handoff (a copy is saved first)`,
  options: { list: { type: "boolean" }, "dry-run": { type: "boolean" }, force: { type: "boolean" } },
  async run(parsed, { json, now }) {
    const pending = pendingOperations();
    if (flag(parsed.values, "list")) {
      if (json) printJson({ operations: pending });
      else if (!pending.length) out("nothing to undo");
      else {for (const e of pending.toReversed()) {
          out(`${e.op}  ${e.at}  ${e.source.harness}:${e.source.id} -> ${e.target.harness}:${e.target.id}`);
        }}
      return 0;
    }
    const [ref, ...extra] = parsed.positionals;
    if (extra.length) throw new InputError(`unexpected argument ${JSON.stringify(extra[0])}`);
    if (ref !== undefined && ref.length < MIN_PREFIX) {
      throw new InputError(`operation id prefix must have at least ${MIN_PREFIX} characters`);
    }
    const entry = ref === undefined ? pending.at(-1) : pending.find((e) => e.op.startsWith(ref));
    if (!entry) {
      throw new RefusedError(
        ref === undefined ? "nothing to undo" : `no pending operation ${JSON.stringify(ref)}`,
      );
    }
    const plan = await planUndo(entry);
    const dryRun = flag(parsed.values, "dry-run");
    const backups = dryRun
      ? []
      : await holdingSignals(() => carryOutUndo(plan, flag(parsed.values, "force"), now));
    const pruned = dryRun ? undefined : applyRetention(now);
    if (json) {
      printJson({
        dryRun,
        op: entry.op,
        remove: plan.remove,
        changed: plan.changed,
        restore: plan.restore,
        rows: plan.rows,
        backups,
        pruned: pruned?.remove.map((c) => c.path) ?? [],
      });
      return exitAfterSignals(0, "undo");
    }
    out(`${dryRun ? "would undo" : "undid"} ${entry.op} (${entry.target.harness}:${entry.target.id})`);
    for (const p of plan.remove) {
      out(
        `  ${dryRun ? "would remove" : "removed"} ${p}${
          plan.changed.includes(p) ? " (changed since the handoff)" : ""
        }`,
      );
    }
    for (const r of plan.restore) out(`  ${dryRun ? "would restore" : "restored"} ${r.path}`);
    for (const r of plan.rows) {
      out(
        `  ${dryRun ? "would delete" : "deleted"} ${r.table} row ${JSON.stringify(r.key)} in ${r.database}`,
      );
    }
    for (const b of backups) out(`  saved ${b}`);
    if (pruned?.remove.length) out(`  ${prunedSummary(pruned)}`);
    return exitAfterSignals(0, "undo");
  },
};
