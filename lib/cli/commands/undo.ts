import type { Command } from "../command.ts";
import { flag } from "../args.ts";
import { soleWritersOf, undo as runUndo, undoable, type UndoOutcome } from "../../pipeline/undo.ts";
import type { LedgerEntry } from "../../store/ledger.ts";
import { EXIT_REFUSED, InputError, RefusedError } from "../../errors.ts";
import { localMinute, type Output } from "../output.ts";
import { prunedSummary } from "./prune.ts";
import { exitAfterSignals } from "../signals.ts";
import { isYes } from "../terminal.ts";
import { auditUndo } from "../../pipeline/audit.ts";

export const undo: Command = {
  usage: "session-bridge undo (OPERATION | --last) [--list] [--dry-run] [--force] [--json]",
  help: `  OPERATION    an operation id (or 6+ character prefix) from --list
  --last       the newest handoff that can be undone (without OPERATION or --last, a terminal is asked
               to confirm the newest; anywhere else that is bad usage)
  --list       list the handoffs that can be undone
  --dry-run    show what undo would remove or restore, or why it would refuse, and change nothing
  --force      also undo what changed since the handoff (files removed or put back, rows deleted; a copy
               of each is saved first)`,
  arguments: ["[operation]"],
  options: {
    list: { type: "boolean" },
    last: { type: "boolean" },
    "dry-run": { type: "boolean" },
    force: { type: "boolean" },
  },
  async run(parsed, { json, now, bridgeHome, terminal, recovered, feedback, output, registry, env }) {
    const { err, out, printJson } = output;
    if (flag(parsed.values, "list")) {
      const pending = undoable(bridgeHome);
      if (json) printJson({ operations: pending });
      else if (!pending.length) out("nothing to undo");
      else for (const e of pending.toReversed()) out(`${e.op}  ${localMinute(e.at)}  ${describe(e)}`);
      return 0;
    }
    const [ref] = parsed.positionals;
    const dryRun = flag(parsed.values, "dry-run");
    const last = flag(parsed.values, "last");
    if (ref !== undefined && last) throw new InputError("pass an OPERATION or --last, not both");
    let op = ref;
    if (op === undefined && !last) {
      // The newest handoff may not be the one meant (a refusal since leaves no entry): it is named, and
      // taken only when someone at a terminal says so.
      const newest = undoable(bridgeHome).at(-1);
      if (!newest) throw new RefusedError("nothing to undo");
      const named = `the newest handoff is ${newest.op} (${localMinute(newest.at)}, ${describe(newest)})`;
      if (json || !terminal.interactive) {
        throw new InputError(`${named}: pass its id or --last to undo it (see undo --list)`);
      }
      out(named);
      if (!dryRun && !isYes(await terminal.ask("undo it? [y/N] "))) {
        throw new RefusedError(
          "not undone: nothing was changed (answer y to undo, or pass the id or --last)",
        );
      }
      op = newest.op;
    }
    const done = await runUndo({
      ...(op !== undefined ? { op } : { last }),
      dryRun,
      force: flag(parsed.values, "force"),
      now,
      bridgeHome,
      recovered,
      feedback,
      soleWriter: soleWritersOf(registry, env),
    });
    auditUndo(bridgeHome, done, "cli", err);
    return json ? printOutcome(done, output) : showOutcome(done, output);
  },
};

/** `claude-code:<id> -> codex:<id>`: where a handoff came from and went. */
const describe = (e: LedgerEntry) =>
  `${e.source.harness}:${e.source.id} -> ${e.target.harness}:${e.target.id}`;

function printOutcome(
  { dryRun, entry, plan, refusal, backups, pruned, aliases, warnings }: UndoOutcome,
  output: Output,
): number {
  const { warn, fail, printJson } = output;
  for (const w of [...warnings, ...(aliases?.warnings ?? [])]) warn(w);
  if (refusal) fail(refusal);
  printJson({
    dryRun,
    op: entry.op,
    remove: plan.remove,
    changed: plan.changed,
    restore: plan.restore,
    rows: plan.rows,
    refusal: refusal ?? null,
    backups,
    pruned: pruned?.remove.map((c) => c.path) ?? [],
    aliases: aliases?.restored ?? [],
    warnings,
    ...(refusal ? { error: { message: refusal, exitCode: EXIT_REFUSED } } : {}),
  }, !refusal);
  return refusal ? EXIT_REFUSED : exitAfterSignals(0, "undo", output);
}

function showOutcome(
  { dryRun, entry, plan, refusal, backups, pruned, aliases, warnings }: UndoOutcome,
  output: Output,
): number {
  const { warn, fail, out } = output;
  const target = `${entry.target.harness}:${entry.target.id}`;
  // A refused dry run still shows what undo --force would do, then says why plain undo will not.
  out(
    refusal
      ? `would refuse to undo ${entry.op} (${target}); with --force it would:`
      : `${dryRun ? "would undo" : "undid"} ${entry.op} (${target})`,
  );
  const changed = (path: string) => plan.changed.includes(path) ? " (changed since the handoff)" : "";
  for (const p of plan.remove) out(`  ${dryRun ? "would remove" : "removed"} ${p}${changed(p)}`);
  for (const r of plan.restore) out(`  ${dryRun ? "would restore" : "restored"} ${r.path}${changed(r.path)}`);
  for (const r of plan.rows) {
    // A key names a row set (a session's messages), not one row.
    out(`  ${dryRun ? "would delete" : "deleted"} ${r.table} rows ${JSON.stringify(r.key)} in ${r.database}`);
  }
  for (const b of backups) out(`  saved ${b}`);
  if (pruned?.remove.length) out(`  ${prunedSummary(pruned)}`);
  for (const a of aliases?.restored ?? []) {
    out(`  @${a.name} (${a.kind}) ${a.nativeId ? `names ${a.nativeId} again` : "is free again"}`);
  }
  for (const w of [...warnings, ...(aliases?.warnings ?? [])]) warn(w);
  if (refusal) {
    fail(refusal);
    return EXIT_REFUSED;
  }
  return exitAfterSignals(0, "undo", output);
}
