/**
 * The event layer through the package's own entries (package.json "exports"): what a library user imports as
 * `session-bridge/observe` and `session-bridge/observe/otel` exists there and works end to end on a real file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "./helpers/tmp.ts";

const exportsMap = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  exports: Record<string, string>;
}).exports;
const entry = (name: string) => new URL(`../${exportsMap[name]!}`, import.meta.url).href;

test("session-bridge/observe: a Session records redacted events in LazyBridge's events table and sums their usage", async () => {
  const observe = await import(entry("./observe")) as typeof import("../lib/observe/mod.ts");
  const db = join(tempDir("sb-observe-api-"), "events.db");
  const session = new observe.Session({ sessionId: "api", db });
  session.emit(observe.EventType.AGENT_START, { agent_name: "main" }, "run-1");
  session.emit(
    observe.EventType.MODEL_RESPONSE,
    { input_tokens: 120, output_tokens: 30, note: "key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
    "run-1",
  );
  session.close();

  // Read back with plain SQLite, not through the code under test.
  const rows = new DatabaseSync(db, { readOnly: true })
    .prepare("SELECT event_type, payload FROM events ORDER BY id").all() as {
      event_type: string;
      payload: string;
    }[];
  assert.deepEqual(rows.map((r) => r.event_type), ["agent_start", "model_response"]);
  assert.doesNotMatch(rows[1]!.payload, /AAAAAAAAAAAAAAAAAAAA/);
  const log = new observe.EventLog(db, "api");
  assert.deepEqual(observe.usageSummary(log).total, { input_tokens: 120, output_tokens: 30, cost_usd: 0 });
  log.close();
});

test("session-bridge/observe/otel: the OpenTelemetry exporter is its own entry", async () => {
  const otel = await import(entry("./observe/otel")) as typeof import("../lib/observe/otel.ts");
  assert.equal(otel.tracesUrl("http://127.0.0.1:4318"), "http://127.0.0.1:4318/v1/traces");
});
