import type { Command } from "../command.ts";
import { flag, str } from "../args.ts";
import { carryOutPrune, DEFAULT_KEEP, planPrune, type PrunePlan } from "../../store/prune.ts";
import { backupsRoot } from "../../store/backup.ts";
import { InputError } from "../../errors.ts";
import { audit } from "../audit.ts";

export const prune: Command = {
  usage: "session-bridge prune [--keep N] [--dry-run] [--json]",
  help:
    `  --keep N     copies to keep of each backed-up database or file (default ${DEFAULT_KEEP}; 0 keeps only
               what an undo still needs)
  --dry-run    list what would be removed and change nothing
The rule: a backup that undoing a pending handoff restores from is always kept; of the other backups of one
database or file, the newest N are kept; the rest are removed. Backups live in $SESSION_BRIDGE_HOME/backups
(default ~/.session-bridge/backups).`,
  arguments: [],
  options: { keep: { type: "string" }, "dry-run": { type: "boolean" } },
  run({ values }, context) {
    const { json, now, bridgeHome, output: { out, printJson } } = context;
    const keep = keepCount(str(values, "keep"));
    const dryRun = flag(values, "dry-run");
    const plan = planPrune(bridgeHome, keep, now);
    if (!dryRun) {
      carryOutPrune(plan, bridgeHome);
      if (plan.remove.length) {
        audit(context, "prune", { keep, removed: plan.remove.map((c) => c.path), bytes: plan.bytes });
      }
    }
    if (json) {
      printJson({
        dryRun,
        keep,
        backups: backupsRoot(bridgeHome),
        removed: plan.remove,
        removedFolders: plan.folders,
        kept: plan.keep,
        bytes: plan.bytes,
      });
      return Promise.resolve(0);
    }
    for (const line of pruneLines(plan, dryRun)) out(line);
    return Promise.resolve(0);
  },
};

function keepCount(value: string | undefined): number {
  if (value === undefined) return DEFAULT_KEEP;
  if (!/^\d+$/.test(value)) {
    throw new InputError(`--keep expects a whole number, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

export function pruneLines(plan: PrunePlan, dryRun: boolean): string[] {
  const verb = dryRun ? "would remove" : "removed";
  return [
    ...plan.remove.map((c) =>
      `${verb} ${c.path} (${megabytes(c.bytes)}, copy of ${c.original} taken ${c.at})`
    ),
    `${verb} ${plan.remove.length} backups, ${megabytes(plan.bytes)}; kept ${plan.keep.length} (${
      plan.keep.filter((c) => c.reason === "undo").length
    } needed by undo)`,
  ];
}

/** One line for a handoff or undo that applied the retention rule afterwards. */
export function prunedSummary(plan: PrunePlan): string {
  return `retention: removed ${plan.remove.length} older backups (${
    megabytes(plan.bytes)
  }); see session-bridge prune`;
}

export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
