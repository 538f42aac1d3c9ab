import type { Command } from "../command.ts";
import { flag } from "../args.ts";
import { recover as runRecover, recoveredLine } from "../../pipeline/recover.ts";

export const recover: Command = {
  usage: "session-bridge recover [--dry-run] [--json]",
  help: `  --dry-run    say what would be completed or rolled back, and change nothing
A handoff cut short (kill -9, a power cut) leaves its intent in the undo ledger. If its commit had happened,
recovery records it so undo can take it back; otherwise it removes what the handoff had written, puts back
what it had replaced, and removes its temp files and backups. An undo cut short is finished if it had begun
removing the handoff, else left undone (undo it again). A convert -o or export cut short leaves its hidden
temp file, which goes (the output appears whole or not at all). Every command that touches a store does this first
by itself; an operation still running in another process is left alone.`,
  arguments: [],
  options: { "dry-run": { type: "boolean" } },
  async run(parsed, { json, bridgeHome, feedback, output }) {
    const { out, printJson } = output;
    const dryRun = flag(parsed.values, "dry-run");
    const outcome = await runRecover({ bridgeHome, dryRun, feedback });
    if (json) {
      printJson({ ...outcome });
      return 0;
    }
    if (!outcome.operations.length) out("nothing to recover");
    for (const o of outcome.operations) {
      out(recoveredLine(o, dryRun));
      for (const r of o.restored) out(`  ${dryRun ? "would restore" : "restored"} ${r.path}`);
      for (const p of o.removed) out(`  ${dryRun ? "would remove" : "removed"} ${p}`);
    }
    for (const op of outcome.running) out(`operation ${op} is still running in another process: left alone`);
    return 0;
  },
};
