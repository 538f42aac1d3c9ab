import type { Command } from "../command.ts";
import { CONVERSION_OPTIONS, flag, harnessFlag, positionals, str } from "../args.ts";
import { loadSession } from "../load.ts";
import { prepareConversion } from "../../pipeline/prepare.ts";
import { formatReport, withNotes } from "../../report/report.ts";
import { InputError, RefusedError } from "../../errors.ts";
import { err, out, printJson } from "../output.ts";
import type { Session } from "../../ir/schema.ts";
import type { HandoffResult } from "../../harnesses/types.ts";
import { recordOperation, sha256File } from "../../store/ledger.ts";
import { newUuid } from "../../ids.ts";
import { assertDirectory } from "../../io/paths.ts";
import { saveProvenance } from "../../tools/provenance.ts";
import { shellQuote } from "../../io/shell.ts";
import type { Values } from "../args.ts";
import type { Registry } from "../../harnesses/registry.ts";
import type { Homes } from "../../harnesses/types.ts";
import { defaultHome, homeOf } from "../../harnesses/homes.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { holdingSignals } from "../../io/interrupt.ts";
import { discardingBackupsOnFailure } from "../../store/operation.ts";
import { applyRetention } from "../../store/prune.ts";
import { prunedSummary } from "./prune.ts";
import { exitAfterSignals } from "../signals.ts";

export const handoff: Command = {
  usage:
    "session-bridge handoff <session> --to H [--cwd DIR] [--title T] [--model M] [--session-id ID] [--dry-run] [--force] [--no-backup] [--json]",
  help: `  --to H             target harness
  --cwd DIR          directory to resume from (default: the source session's)
  --title T          title in the target (default: the source's, else its first user message)
  --model M          model the target continues on (default: the target's configured model, else the
                     source's mapped into the target's namespace; the report says which)
  --session-id ID    target id (default: a fresh one in the target's format)
  --dry-run          print the plan (files, report, backups) and touch nothing
  --force            replace an existing target session (backed up first)
  --no-backup        skip the database backup (file targets never need one)
  --no-handshake     do not append the resume handshake
  --stub-open-calls  give each interrupted tool call a result saying it was interrupted (the default:
                     every target otherwise hides or invents it on resume)
  --no-stub-open-calls  leave interrupted tool calls without a result
  --from H           look for <session> in this harness only`,
  options: {
    ...CONVERSION_OPTIONS,
    title: { type: "string" },
    model: { type: "string" },
    "session-id": { type: "string" },
    "dry-run": { type: "boolean" },
    "no-backup": { type: "boolean" },
  },
  async run(parsed, context) {
    const { registry, homes, json, now } = context;
    const [ref] = positionals(parsed, ["session"]);
    const target = harnessFlag(parsed.values, "to", registry);
    if (!target) throw new InputError("missing --to H");
    const sessionId = str(parsed.values, "session-id");
    if (sessionId !== undefined) target.checkId(sessionId);
    const force = flag(parsed.values, "force");
    const dryRun = flag(parsed.values, "dry-run");
    const { session: source } = await loadSession(ref!, parsed.values, context);
    const title = str(parsed.values, "title") ?? source.meta.title;
    const model = str(parsed.values, "model");
    const cwd = str(parsed.values, "cwd");
    // A session placed for a directory that does not exist could never be resumed from it.
    assertDirectory(
      cwd ?? source.meta.cwd ?? "",
      cwd ? "--cwd" : "the source session's directory (pass --cwd DIR)",
    );
    const { session, options, report: prepared, memory } = prepareConversion(source, target, {
      ...(sessionId ? { id: sessionId } : {}),
      ...(cwd ? { cwd } : {}),
      ...(title ? { title } : {}),
      ...(model ? { model } : {}),
      handshake: !flag(parsed.values, "no-handshake"),
      stubOpenCalls: !flag(parsed.values, "no-stub-open-calls"),
      now,
      home: homeOf(homes, target),
    });
    const plan = await target.plan(session, options, homeOf(homes, target), force);
    const report = withNotes(prepared, plan.notes);
    const backupPlanned = plan.databases.length > 0 && !flag(parsed.values, "no-backup");
    if (plan.refusal && !dryRun) throw new RefusedError(plan.refusal);
    // Signals are held from the first write until the ledger knows the handoff: interrupted before the commit,
    // everything is rolled back; after it, the handoff completes and is recorded for undo.
    const done = dryRun ? undefined : await holdingSignals(async () => {
      const result = await discardingBackupsOnFailure(() =>
        plan.commit({ force, backup: !flag(parsed.values, "no-backup"), now })
      );
      saveProvenance(target.name, plan.id, session, memory);
      return { result, op: await recordHandoff(source, result, now) };
    });
    const result = done?.result;
    const op = done?.op;
    const pruned = done ? applyRetention(now) : undefined;
    const targetInfo = {
      harness: plan.harness,
      id: plan.id,
      path: plan.path,
      cwd: plan.cwd,
      resumeCommand: plan.resumeCommand,
    };
    // A fresh id is minted per run, so the plan names the exact command that carries it out with this id.
    const reproduce = dryRun
      ? reproduceCommand(ref!, parsed.values, registry, homes, plan.harness, plan.id, plan.cwd)
      : undefined;
    const backup = {
      planned: backupPlanned,
      databases: plan.databases,
      paths: result?.backups ?? [],
      pruned: pruned?.remove.map((c) => c.path) ?? [],
    };
    if (json) {
      printJson({
        dryRun,
        op: op ?? null,
        target: targetInfo,
        files: plan.files,
        refusal: plan.refusal ?? null,
        ...(reproduce ? { reproduce } : {}),
        backup,
        report,
      });
      return exitAfterSignals(plan.refusal ? 1 : 0, "handoff");
    }
    for (const l of formatReport(report)) err(l);
    out(dryRun ? "plan (nothing written):" : "handed off:");
    for (const f of plan.files) out(`  ${dryRun ? "would write" : "wrote"} ${f}`);
    for (const db of plan.databases) out(`  ${dryRun ? "would register in" : "registered in"} ${db}`);
    out(`  backup: ${backupSummary(backup, dryRun)}`);
    if (pruned?.remove.length) out(`  ${prunedSummary(pruned)}`);
    if (plan.refusal) {
      err(`session-bridge: ${plan.refusal}`);
      return 1;
    }
    if (reproduce) out(`carry out exactly this plan with:\n  ${reproduce}`);
    out(`${dryRun ? "then resume" : "resume"} with:\n  ${plan.resumeCommand}`);
    if (op) out(`undo with:\n  session-bridge undo ${op}`);
    return exitAfterSignals(0, "handoff");
  },
};

/** Appends the handoff to the undo ledger, with hashes that let undo notice later appends. */
async function recordHandoff(session: Session, result: HandoffResult, now: Date): Promise<string> {
  const op = newUuid();
  recordOperation({
    op,
    at: now.toISOString(),
    source: { harness: session.meta.harness, id: session.meta.id },
    target: { harness: result.plan.harness, id: result.plan.id, path: result.plan.path },
    written: await Promise.all(
      result.written.map(async (path) => ({ path, sha256: await sha256File(path) })),
    ),
    rows: result.rows,
    replaced: result.replaced,
    backups: result.backups,
  });
  return op;
}

function backupSummary(
  backup: { planned: boolean; databases: string[]; paths: string[] },
  dryRun: boolean,
): string {
  if (backup.paths.length) return backup.paths.join(", ");
  if (!backup.databases.length) {
    return "none needed (new files only; existing ones are never replaced without --force)";
  }
  if (!backup.planned) return "skipped (--no-backup)";
  return dryRun ? `online backup of ${backup.databases.join(", ")} before writing` : "none";
}

/** The handoff command that carries out a dry run's plan: the same flags, absolute paths and the planned id. */
function reproduceCommand(
  ref: string,
  values: Values,
  registry: Registry,
  homes: Homes,
  to: string,
  id: string,
  cwd: string,
): string {
  const words = ["session-bridge", "handoff", existsSync(ref) ? resolve(ref) : ref, "--to", to];
  const from = str(values, "from");
  if (from) words.push("--from", from);
  words.push("--cwd", cwd, "--session-id", id);
  for (const name of ["title", "model"]) {
    const value = str(values, name);
    if (value !== undefined) words.push(`--${name}`, value);
  }
  for (const name of ["force", "no-backup", "no-handshake", "no-stub-open-calls"]) {
    if (flag(values, name)) words.push(`--${name}`);
  }
  // Every home that is not the default, however it was given (flag or variable): the command must find the
  // same stores when pasted into a terminal that has none of those variables.
  for (const h of registry.harnesses) {
    const home = homeOf(homes, h);
    if (home !== defaultHome(h.home)) words.push(`--${h.home.flag}`, home);
  }
  return words.map(shellQuote).join(" ");
}
