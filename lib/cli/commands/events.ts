import type { Command } from "../command.ts";
import { flag, positionals, str } from "../args.ts";
import { loadSession } from "../load.ts";
import { otelOption } from "../otel-option.ts";
import { replaySession } from "../../observe/replay.ts";
import {
  consoleExporter,
  type ExportedEvent,
  type Exporter,
  jsonlExporter,
  Session,
} from "../../observe/session.ts";

export const events: Command = {
  usage:
    "session-bridge events <session> [--from H] [--db FILE] [--jsonl FILE] [--otel URL] [--console] [--json]",
  help: `  --from H      look for <session> in this harness only
  --db FILE     append the events to a SQLite event log (LazyBridge's events table)
  --jsonl FILE  append the events to a JSON lines file
  --otel URL    send the events as OpenTelemetry spans (GenAI conventions) to a collector's OTLP/HTTP
                endpoint, e.g. http://localhost:4318; without it, OTEL_EXPORTER_OTLP_ENDPOINT or
                OTEL_EXPORTER_OTLP_TRACES_ENDPOINT when set; OTEL_EXPORTER_OTLP_HEADERS applies
  --console     print one line per event (the default when no other output is named)
  --json        print the events and their usage summary as one JSON document
Each user turn is a run (agent_start ... agent_finish) with its model responses (token usage as the harness
recorded it; cost as it recorded it, else estimated from a dated price table: cost_basis says which), tool
calls, results and errors. Secrets are redacted.`,
  arguments: ["session"],
  options: {
    from: { type: "string" },
    db: { type: "string" },
    jsonl: { type: "string" },
    otel: { type: "string" },
    console: { type: "boolean" },
  },
  async run(parsed, context) {
    const { err, out, printJson } = context.output;
    const { values } = parsed;
    const [ref] = positionals(parsed, ["session"]);
    const { session } = await loadSession(ref!, values, context);
    const [db, jsonl] = [str(values, "db"), str(values, "jsonl")];
    const exported: ExportedEvent[] = [];
    const exporters: Exporter[] = [];
    if (jsonl) exporters.push(jsonlExporter(jsonl));
    let replayedAt: number | undefined;
    const otel = await otelOption(str(values, "otel"), context.env, () => replayedAt);
    if (otel.exporter) exporters.push(otel.exporter);
    if (context.json) exporters.push({ name: "json", export: (e) => void exported.push(e) });
    else if (flag(values, "console") || (!db && !jsonl && !str(values, "otel"))) {
      exporters.push(consoleExporter(out));
    }
    const bus = new Session({ sessionId: session.meta.id, db: db ?? ":memory:", exporters, warn: err });
    try {
      for (const e of replaySession(session)) {
        replayedAt = e.ts;
        bus.emit(e.eventType, e.payload, e.runId ?? null, e.ts);
      }
      if (context.json) printJson({ events: exported, usage: bus.usageSummary() });
    } finally {
      // Spans leave in batches: closing waits until the collector has them.
      await bus.close();
    }
    otel.check();
    return 0;
  },
};
