import type { Command } from "../command.ts";
import {
  CONVERSION_OPTIONS,
  FIT_HELP,
  fitFlags,
  flag,
  harnessFlag,
  permissionsFlag,
  positionals,
  str,
} from "../args.ts";
import { storesOf } from "../load.ts";
import { handoff as runHandoff, type HandoffBackup } from "../../pipeline/handoff.ts";
import { formatReport } from "../../report/report.ts";
import { fittedHelp } from "../display.ts";
import { harnessList } from "../../harnesses/registry.ts";
import { EXIT_REFUSED, InputError } from "../../errors.ts";
import { prunedSummary } from "./prune.ts";
import { exitAfterSignals } from "../signals.ts";
import { auditHandoff } from "../../pipeline/audit.ts";
import { handoffCommandLine } from "../replay.ts";
import { summarizeWithFlag } from "../summarize-with.ts";

export const handoff: Command = {
  usage:
    "session-bridge handoff <session> --to H [--alias NAME] [--cwd DIR] [--title T] [--model M] [--session-id ID] [--fit auto|off|TOKENS] [--context TOKENS] [--summarize-with H] [--permissions narrow|keep] [--dry-run] [--force] [--no-backup] [--json]",
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
${FIT_HELP}
  --permissions P    narrow (the default): the source's permission posture goes into another harness no
                     further than that harness allows when told nothing; keep: as the source had it, even
                     where that lets the agent do more unasked (the report says so first)
  --from H           look for <session> in this harness only
  --alias NAME       name the new conversation NAME in the resume folder (LazyBridge's registry); without
                     it, names the source has there follow it (the source keeps them)`,
  arguments: ["session"],
  options: {
    ...CONVERSION_OPTIONS,
    title: { type: "string" },
    model: { type: "string" },
    "session-id": { type: "string" },
    "dry-run": { type: "boolean" },
    "no-backup": { type: "boolean" },
    alias: { type: "string" },
  },
  async run(parsed, context) {
    const { err, warn, fail, out, printJson } = context.output;
    const { registry, json } = context;
    const { values } = parsed;
    const [ref] = positionals(parsed, ["session"]);
    const target = harnessFlag(values, "to", registry);
    if (!target) throw new InputError(`missing --to H (${harnessList(registry)})`);
    const from = harnessFlag(values, "from", registry);
    const [cwd, title, model, sessionId] = ["cwd", "title", "model", "session-id"].map((n) => str(values, n));
    const dryRun = flag(values, "dry-run");
    const alias = str(values, "alias");
    const done = await runHandoff({
      ...(alias !== undefined ? { alias } : {}),
      source: { ref: ref!, ...(from !== undefined ? { from } : {}) },
      to: target,
      ...(cwd !== undefined ? { cwd } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      force: flag(values, "force"),
      dryRun,
      backup: !flag(values, "no-backup"),
      handshake: !flag(values, "no-handshake"),
      stubOpenCalls: !flag(values, "no-stub-open-calls"),
      permissions: permissionsFlag(values),
      ...fitFlags(values),
      ...(await summarizeWithFlag(values, context, cwd)),
      ...storesOf(context),
    });
    for (const w of [...done.warnings, ...(done.aliases?.warnings ?? [])]) {
      warn(w);
    }
    auditHandoff(context.bridgeHome, done, "cli", err);
    const reproduce = done.reproduce && handoffCommandLine(done.reproduce, registry);
    if (json) {
      // A refused plan is a failure like a refused handoff: ok is false and the error says why, with exit 1.
      if (done.refusal) fail(done.refusal);
      printJson({
        dryRun,
        op: done.op ?? null,
        target: done.target,
        files: done.files,
        refusal: done.refusal ?? null,
        ...(reproduce ? { reproduce } : {}),
        backup: done.backup,
        aliases: done.aliases?.followed ?? [],
        warnings: done.warnings,
        report: done.report,
        ...(done.refusal ? { error: { message: done.refusal, exitCode: EXIT_REFUSED } } : {}),
      }, !done.refusal);
      return exitAfterSignals(done.refusal ? EXIT_REFUSED : 0, "handoff", context.output);
    }
    err(await fittedHelp(formatReport(done.report).join("\n"), context.output));
    out(dryRun ? "plan (nothing written):" : "handed off:");
    for (const f of done.files) out(`  ${dryRun ? "would write" : "wrote"} ${f}`);
    for (const db of done.databases) out(`  ${dryRun ? "would register in" : "registered in"} ${db}`);
    out(`  backup: ${backupSummary(done.backup, dryRun)}`);
    if (done.pruned?.remove.length) out(`  ${prunedSummary(done.pruned)}`);
    if (done.refusal) {
      fail(done.refusal);
      return 1;
    }
    if (reproduce) out(`carry out exactly this plan with:\n  ${reproduce}`);
    out(`${dryRun ? "then resume" : "resume"} with:\n  ${done.target.resumeCommand}`);
    for (const a of done.aliases?.followed ?? []) {
      out(
        `named @${a.name} for ${done.target.harness} in ${a.scope}${
          a.replaced ? ` (was ${a.replaced})` : ""
        }`,
      );
    }
    if (done.op) out(`undo with:\n  session-bridge undo ${done.op}`);
    return exitAfterSignals(0, "handoff", context.output);
  },
};

function backupSummary(backup: HandoffBackup, dryRun: boolean): string {
  if (backup.paths.length) return backup.paths.join(", ");
  if (!backup.databases.length) {
    return "none needed (new files only; existing ones are never replaced without --force)";
  }
  if (!backup.planned) return "skipped (--no-backup)";
  return dryRun
    ? `what the handoff replaces in ${backup.databases.join(", ")}, copied before writing`
    : "none";
}
