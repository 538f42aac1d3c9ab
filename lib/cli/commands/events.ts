import type { Command } from "../command.ts";
import { flag, positionals, str } from "../args.ts";
import { loadSession } from "../load.ts";
import { out, printJson } from "../output.ts";
import { replaySession } from "../../observe/replay.ts";
import {
  consoleExporter,
  type ExportedEvent,
  type Exporter,
  jsonlExporter,
  Session,
} from "../../observe/session.ts";

export const events: Command = {
  usage: "session-bridge events <session> [--from H] [--db FILE] [--jsonl FILE] [--console] [--json]",
  help: `  --from H      look for <session> in this harness only
  --db FILE     append the events to a SQLite event log (LazyBridge's events table)
  --jsonl FILE  append the events to a JSON lines file
  --console     print one line per event (the default when no other output is named)
  --json        print the events and their usage summary as one JSON document
Each user turn is a run (agent_start ... agent_finish) with its model responses (token usage as the harness
recorded it; cost where it records one), tool calls, results and errors. Secrets are redacted.`,
  arguments: ["session"],
  options: {
    from: { type: "string" },
    db: { type: "string" },
    jsonl: { type: "string" },
    console: { type: "boolean" },
  },
  async run(parsed, context) {
    const { values } = parsed;
    const [ref] = positionals(parsed, ["session"]);
    const { session } = await loadSession(ref!, values, context);
    const [db, jsonl] = [str(values, "db"), str(values, "jsonl")];
    const exported: ExportedEvent[] = [];
    const exporters: Exporter[] = [];
    if (jsonl) exporters.push(jsonlExporter(jsonl));
    if (context.json) exporters.push({ name: "json", export: (e) => void exported.push(e) });
    else if (flag(values, "console") || (!db && !jsonl)) exporters.push(consoleExporter(out));
    const bus = new Session({ sessionId: session.meta.id, db: db ?? ":memory:", exporters });
    try {
      for (const e of replaySession(session)) bus.emit(e.eventType, e.payload, e.runId ?? null, e.ts);
      if (context.json) printJson({ events: exported, usage: bus.usageSummary() });
    } finally {
      bus.close();
    }
    return 0;
  },
};
