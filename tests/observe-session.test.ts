/** The event bus: default redaction and its opt-outs, redactor failures, exporters isolated from each other. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType } from "../lib/observe/event-log.ts";
import {
  callbackExporter,
  consoleExporter,
  type ExportedEvent,
  type Exporter,
  filteredExporter,
  jsonlExporter,
  Session,
} from "../lib/observe/session.ts";

const TOKEN = `ghp_${"Q".repeat(36)}`;

function collect(): { exporter: Exporter; seen: ExportedEvent[] } {
  const seen: ExportedEvent[] = [];
  return { exporter: callbackExporter((e) => void seen.push(e)), seen };
}

test("events are redacted by default in the log and in every exporter", () => {
  const { exporter, seen } = collect();
  const s = new Session({ sessionId: "s", db: ":memory:", exporters: [exporter] });
  s.emit(EventType.TOOL_CALL, { command: `gh auth login --with-token ${TOKEN}` }, "r1");
  assert.equal(seen[0]?.command, "gh auth login --with-token <redacted:github-token>");
  assert.deepEqual(seen[0] && [seen[0].event_type, seen[0].session_id, seen[0].run_id], [
    "tool_call",
    "s",
    "r1",
  ]);
  assert.equal(s.events?.query()[0]?.payload.command, seen[0]?.command);
  s.close();
  s.close();
});

test("redact: null opts out, and a custom redactor replaces the default instead of stacking on it", () => {
  const a = collect();
  new Session({ sessionId: "s", exporters: [a.exporter], redact: null }).emit("x", { t: TOKEN });
  assert.equal(a.seen[0]?.t, TOKEN);
  const b = collect();
  new Session({ sessionId: "s", exporters: [b.exporter], redact: (p) => ({ ...p, custom: true }) })
    .emit("x", { t: TOKEN });
  assert.deepEqual([b.seen[0]?.t, b.seen[0]?.custom], [TOKEN, true]);
});

test("a failing redactor drops the event everywhere under strict and keeps it under fallback, warning once", () => {
  const boom = () => {
    throw new TypeError("bad");
  };
  const strict = collect();
  const warnings: string[] = [];
  const s = new Session({
    sessionId: "s",
    db: ":memory:",
    exporters: [strict.exporter],
    redact: boom,
    warn: (l) => void warnings.push(l),
  });
  s.emit("x", { a: 1 });
  s.emit("x", { a: 2 });
  assert.deepEqual([strict.seen.length, s.events?.query().length, s.droppedByRedactor], [0, 0, 2]);
  assert.equal(warnings.length, 1);
  const fallback = collect();
  const f = new Session({
    sessionId: "s",
    exporters: [fallback.exporter],
    redact: boom,
    redactOnError: "fallback",
    warn: () => {},
  });
  f.emit("x", { a: 1 });
  assert.equal(fallback.seen[0]?.a, 1);
});

test("a throwing exporter warns once per error kind, is counted, and never stops the others", () => {
  const good = collect();
  const warnings: string[] = [];
  let n = 0;
  const bad: Exporter = {
    name: "bad",
    export: () => {
      throw n++ % 2 ? new RangeError("r") : new TypeError("t");
    },
  };
  const s = new Session({
    sessionId: "s",
    exporters: [bad, good.exporter],
    warn: (l) => void warnings.push(l),
  });
  for (let i = 0; i < 5; i++) s.emit("x", { i });
  assert.equal(good.seen.length, 5);
  assert.equal(warnings.length, 2);
  assert.deepEqual([...s.exporterFailures.values()].sort(), [2, 3]);
});

test("filtered, JSON-lines and console exporters", () => {
  const dir = mkdtempSync(join(tmpdir(), "sb-export-"));
  try {
    const file = join(dir, "events.jsonl");
    const lines: string[] = [];
    const s = new Session({
      sessionId: "s",
      exporters: [
        filteredExporter(jsonlExporter(file), ["tool_error"]),
        consoleExporter((l) => void lines.push(l)),
      ],
    });
    s.emit("tool_call", { x: 1 });
    s.emit("tool_error", { error: "no\u009b[2J" }, "r");
    s.close();
    const written = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as ExportedEvent);
    assert.deepEqual(written.map((e) => e.event_type), ["tool_error"]);
    assert.equal(lines.length, 2);
    assert.ok(!lines.some((l) => l.includes("\u009b")), "a C1 control reached the console line");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
