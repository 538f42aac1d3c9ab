/**
 * The batched bus under back-pressure, with a deliberately slow exporter that delivers nothing until the test
 * opens its gate: hybrid keeps every critical event and drops only high-volume ones (counted), block keeps all,
 * drop never waits; drops are warned at 1, 2, 4, 8... Nothing here is timed.
 */
import { test } from "node:test";
import { setImmediate } from "node:timers";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../lib/runtime.ts";
import { type ExportedEvent, type Exporter, Session } from "../lib/observe/session.ts";

const CLOSE_QUEUED = fileURLToPath(new URL("./helpers/close-queued.ts", import.meta.url));

/** An exporter whose every export waits for `open()`. */
function slowExporter(): { exporter: Exporter; received: ExportedEvent[]; open: () => void } {
  const received: ExportedEvent[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    received,
    open,
    exporter: {
      name: "slow",
      export: async (event) => {
        await gate;
        received.push(event);
      },
    },
  };
}

/** Whether a promise has settled, after letting every queued microtask and macrotask run once. */
async function settled(promise: Promise<void> | void): Promise<boolean> {
  let done = false;
  void Promise.resolve(promise).then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

function busWith(onFull: "block" | "drop" | "hybrid", exporter: Exporter, warnings: string[]): Session {
  return new Session({
    sessionId: "back-pressure",
    exporters: [exporter],
    batched: true,
    batchSize: 1,
    interval: 1,
    maxQueueSize: 2,
    onFull,
    warn: (line) => warnings.push(line),
  });
}

test("hybrid: every critical event is kept (its producer waits), high-volume ones are dropped and counted", async () => {
  const slow = slowExporter();
  const warnings: string[] = [];
  const bus = busWith("hybrid", slow.exporter, warnings);
  const steps = Array.from({ length: 10 }, (_, i) => bus.emit("model_response", { step: i }, "r1"));
  const finish = bus.emit("agent_finish", { agent_name: "main" }, "r1");
  const errorEvent = bus.emit("tool_error", { error: "boom" }, "r1");
  assert.equal(await settled(finish), false, "a critical event waits for room instead of being dropped");
  for (const step of steps) assert.equal(await settled(step), true, "a high-volume event never waits");
  slow.open();
  await Promise.all([finish, errorEvent]);
  await bus.flush();
  const types = slow.received.map((e) => e.event_type);
  assert.equal(types.filter((t) => t === "agent_finish").length, 1);
  assert.equal(types.filter((t) => t === "tool_error").length, 1);
  const keptSteps = types.filter((t) => t === "model_response").length;
  assert.ok(bus.droppedByBackPressure > 0, "the full queue dropped something");
  assert.equal(keptSteps + bus.droppedByBackPressure, 10);
  assert.equal(bus.droppedCritical, 0);
  bus.close();
});

test("block: every event is kept, the producers waiting while the queue is full", async () => {
  const slow = slowExporter();
  const bus = busWith("block", slow.exporter, []);
  const emits = Array.from({ length: 10 }, (_, i) => bus.emit("model_response", { step: i }, "r1"));
  assert.equal(await settled(emits[9]), false, "the tenth producer waits for room");
  slow.open();
  await Promise.all(emits);
  await bus.flush();
  assert.deepEqual(slow.received.map((e) => e.step), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(bus.droppedByBackPressure, 0);
  bus.close();
});

test("drop: no producer ever waits, even for a critical event; drops warned at 1, 2, 4 and 8", async () => {
  const slow = slowExporter();
  const warnings: string[] = [];
  const bus = busWith("drop", slow.exporter, warnings);
  const emits = Array.from({ length: 12 }, (_, i) => bus.emit("tool_call", { step: i }, "r1"));
  for (const emit of emits) assert.equal(await settled(emit), true);
  const dropped = bus.droppedByBackPressure;
  assert.ok(dropped >= 8, `dropped ${dropped}`);
  assert.equal(bus.droppedCritical, dropped, "tool_call is critical: counted apart");
  assert.deepEqual(
    warnings.map((w) => /dropped (\d+) event/.exec(w)?.[1]),
    ["1", "2", "4", "8"].filter((n) => Number(n) <= dropped),
  );
  slow.open();
  await bus.flush();
  assert.equal(slow.received.length + dropped, 12);
  bus.close();
});

test("await using flushes the queue before closing; events reach the log in batches", async () => {
  const received: ExportedEvent[] = [];
  {
    await using bus = new Session({
      sessionId: "flushed",
      db: ":memory:",
      exporters: [{ name: "list", export: (event) => void received.push(event) }],
      batched: true,
      batchSize: 3,
      interval: 60_000,
    });
    for (let i = 0; i < 7; i++) await bus.emit("loop_step", { step: i }, "r1");
    // A batch of three goes as soon as it is full; the last one waits for the flush (never for the minute).
    await bus.flush();
    assert.equal(bus.events?.query({ eventType: "loop_step" }).length, 7);
  }
  assert.deepEqual(received.map((e) => e.step), [0, 1, 2, 3, 4, 5, 6]);
});

test("closing a batched session with events still queued delivers them and the host process exits 0", () => {
  const [bin, ...pre] = scriptArgv(CLOSE_QUEUED);
  const r = spawnSync(bin!, pre, { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { seen: [0, 1, 2, 3, 4, 5, 6], logged: 7 });
});

test("a stuck exporter never blocks flush or close forever: each gives up at its timeout and says what was left", async () => {
  const stuck = slowExporter(); // never opened
  const warnings: string[] = [];
  const bus = busWith("block", stuck.exporter, warnings);
  await bus.emit("agent_start", { agent_name: "main" }, "r1");
  await bus.emit("agent_finish", { agent_name: "main" }, "r1");
  assert.equal(await bus.flush(0), false, "flush reports it could not deliver everything");
  await bus.close(0);
  assert.ok(
    warnings.some((w) => /1 queued event\(s\) not delivered within 0 ms of close/.test(w)),
    warnings.join("\n"),
  );
  assert.throws(() => bus.emit("agent_start", {}), /closed/);
});

test("batched options are checked at run time as LazyBridge does: interval <= 0 and unknown onFull are errors", () => {
  const make = (extra: Record<string, unknown>) => () =>
    new Session({ sessionId: "s", batched: true, ...extra } as ConstructorParameters<typeof Session>[0]);
  assert.throws(make({ interval: 0 }), /interval must be > 0, got 0/);
  assert.throws(make({ interval: -5 }), /interval must be > 0/);
  assert.throws(make({ onFull: "spill" }), /onFull must be "block", "drop", "hybrid"; got "spill"/);
});
