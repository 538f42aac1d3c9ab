import type { Command } from "../command.ts";
import { flag } from "../args.ts";
import { undo as runUndo, undoable } from "../../pipeline/undo.ts";
import { InputError } from "../../errors.ts";
import { out, printJson } from "../output.ts";
import { prunedSummary } from "./prune.ts";
import { exitAfterSignals } from "../signals.ts";

export const undo: Command = {
  usage: "session-bridge undo [OPERATION] [--list] [--dry-run] [--force] [--json]",
  help: `  OPERATION    an operation id (or 6+ character prefix) from --list; default: the newest
  --list       list the handoffs that can be undone
  --dry-run    show what would be removed or restored, and change nothing
  --force      also remove files that changed since the handoff (a copy is saved first)`,
  options: { list: { type: "boolean" }, "dry-run": { type: "boolean" }, force: { type: "boolean" } },
  async run(parsed, { json, now, bridgeHome }) {
    if (flag(parsed.values, "list")) {
      const pending = undoable(bridgeHome);
      if (json) printJson({ operations: pending });
      else if (!pending.length) out("nothing to undo");
      else {for (const e of pending.toReversed()) {
          out(`${e.op}  ${e.at}  ${e.source.harness}:${e.source.id} -> ${e.target.harness}:${e.target.id}`);
        }}
      return 0;
    }
    const [ref, ...extra] = parsed.positionals;
    if (extra.length) throw new InputError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const dryRun = flag(parsed.values, "dry-run");
    const { entry, plan, backups, pruned } = await runUndo({
      ...(ref !== undefined ? { op: ref } : {}),
      dryRun,
      force: flag(parsed.values, "force"),
      now,
      bridgeHome,
    });
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
