import type { Command } from "../command.ts";
import { localMinute } from "../output.ts";
import { auditPath, auditTrail } from "../../pipeline/audit.ts";

export const log: Command = {
  usage: "session-bridge log [--json]",
  help: `What session-bridge changed, oldest first: handoffs, undos, prunes, alias binds, renames and forgets,
skill installs, as recorded (secrets redacted) in $SESSION_BRIDGE_HOME/events.db (default
~/.session-bridge/events.db), LazyBridge's events table.`,
  arguments: [],
  options: {},
  run(_parsed, { json, bridgeHome, output }) {
    const { out, printJson } = output;
    const events = auditTrail(bridgeHome);
    if (json) {
      printJson({ file: auditPath(bridgeHome), events });
      return Promise.resolve(0);
    }
    if (!events.length) out(`nothing recorded yet (${auditPath(bridgeHome)})`);
    for (const e of events) {
      const at = localMinute(new Date(e.ts * 1000).toISOString());
      out(`${at}  ${e.event_type}${e.run_id ? ` ${e.run_id}` : ""}  ${JSON.stringify(e.payload)}`);
    }
    return Promise.resolve(0);
  },
};
