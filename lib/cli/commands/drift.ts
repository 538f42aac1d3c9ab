import type { Command } from "../command.ts";
import { harnessFlag } from "../args.ts";
import { driftLines, scanDrift } from "../../pipeline/drift.ts";
import { storeLocations } from "../../harnesses/stores.ts";

export const drift: Command = {
  usage: "session-bridge drift [--from H] [--json]",
  help: `  --from H     only this harness's store
Reads every session read-only and prints record types, fields and columns the embedded schemas do not
describe, per harness and version, without printing any conversation content. A store that cannot be read
at all is named, the others are still checked, and the exit code is 1.`,
  arguments: [],
  options: { from: { type: "string" } },
  async run({ values }, { registry, homes, json, limits, feedback, output }) {
    const { out, printJson } = output;
    const from = harnessFlag(values, "from", registry);
    const harnesses = from ? [from] : registry.harnesses;
    const scan = await scanDrift(harnesses, homes, { limits, feedback });
    const clean = !scan.drift.length && !scan.unreadable.length && !scan.brokenStores.length;
    if (json) {
      printJson({
        sessions: scan.sessions,
        clean,
        drift: scan.drift,
        unreadable: scan.unreadable,
        brokenStores: scan.brokenStores,
      }, true);
    } else {
      out(
        `${scan.sessions} sessions checked: ${
          clean
            ? "no drift"
            : `${scan.drift.length} unknown shapes, ${scan.unreadable.length} unreadable sessions, ` +
              `${scan.brokenStores.length} unreadable stores`
        }`,
      );
      for (const line of driftLines(scan)) out(`  ${line}`);
      // Nothing checked may mean the stores are elsewhere: say where they were looked for.
      if (!scan.sessions) out(`  looked in ${storeLocations(harnesses, homes)}`);
    }
    return clean ? 0 : 1;
  },
};
