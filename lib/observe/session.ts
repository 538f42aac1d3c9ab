/**
 * The event bus, as LazyBridge's Session: redact, record, export. Redaction is on by default (`redact: null`
 * opts out; a custom redactor replaces the default, it is not stacked). A failing redactor under `strict`
 * (default) drops the event everywhere with one warning; under `fallback` the event goes on unredacted.
 * An exporter that throws never stops the others: one warning per (exporter, error kind), the rest counted.
 * `batched` delivers events (log and exporters) from a bounded queue in batches; when the queue is full,
 * `onFull` decides: `block` waits for room, `drop` never waits, `hybrid` (default) waits only for the
 * audit-critical event types and drops the high-volume ones, counted, with a warning at 1, 2, 4, 8... drops.
 * `close()` first delivers what is still queued (as LazyBridge's close drains its writer), bounded by a timeout
 * (5 s, as LazyBridge's), then releases the log and shuts every exporter down (the OpenTelemetry one sends its
 * last spans then); it never rejects.
 */
import { randomUUID } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import {
  EventLog,
  type EventRecord,
  type EventType,
  type Payload,
  type UsageSummary,
  usageSummary,
} from "./event-log.ts";
import { redactSecrets } from "./redact.ts";
import { consoleLine } from "./console-line.ts";
import { type AgentLike, type GraphNode, GraphSchema } from "./graph.ts";

/** What exporters receive: `{event_type, session_id, run_id, ...payload}`. */
export type ExportedEvent = Payload & { event_type: string; session_id: string; run_id: string | null };

export interface Exporter {
  readonly name: string;
  /** A promise is awaited in batched mode (a slow exporter holds the queue back, not the producer). */
  export(event: ExportedEvent): void | Promise<void>;
  /** A promise is awaited by `Session.close()`: an exporter that ships events elsewhere flushes here. */
  close?(): void | Promise<void>;
}

export type Redactor = (payload: Payload) => Payload;

export interface SessionOptions {
  /** Default: a new UUID, as LazyBridge makes one. */
  sessionId?: string;
  /** SQLite file for the event log; default an in-memory one, so `usageSummary()` works, as in LazyBridge. */
  db?: string;
  exporters?: Exporter[];
  /** Absent: the default secret redactor. `null`: no redaction. */
  redact?: Redactor | null;
  /**
   * LazyBridge's searchable switch for `redact: null`: true turns the default redactor off, so payloads reach
   * the log and every exporter (console, structured log, ...) as emitted. It changes nothing when `redact` is
   * given: a redactor passed explicitly always wins.
   */
  unsafeLogPayloads?: boolean;
  redactOnError?: "strict" | "fallback";
  /** Adds a console exporter (one human line per event on stdout), as LazyBridge's `console=True`. */
  console?: boolean;
  /** Where warnings go (stderr by default). */
  warn?: (line: string) => void;
  /** Deliver from a bounded queue in batches instead of on each emit. */
  batched?: boolean;
  /** Events per batch (default 100, as LazyBridge). */
  batchSize?: number;
  /** Longest wait for a batch to fill, in milliseconds (default 1000). */
  interval?: number;
  /** Queued events before `onFull` applies (default 10 000). */
  maxQueueSize?: number;
  onFull?: "block" | "drop" | "hybrid";
  /** The event types `hybrid` waits for (default LazyBridge's: agent start/finish, tool events, HIL decisions). */
  criticalEvents?: readonly string[];
}

/** How long `flush()` waits by default and `close()` waits for queued events and shutdowns (LazyBridge's 5 s). */
export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;

/** LazyBridge 1.8.3's DEFAULT_CRITICAL_EVENT_TYPES: an audit trace must never silently lose these. */
export const DEFAULT_CRITICAL_EVENTS: readonly string[] = [
  "agent_start",
  "agent_finish",
  "tool_error",
  "tool_timeout",
  "tool_call",
  "tool_result",
  "hil_decision",
];

interface Queued {
  record: EventRecord;
  exported: ExportedEvent;
}

interface Batching {
  size: number;
  interval: number;
  maxQueueSize: number;
  onFull: "block" | "drop" | "hybrid";
  critical: ReadonlySet<string>;
}

function batchingOf(options: SessionOptions): Batching | undefined {
  if (!options.batched) return undefined;
  const batching: Batching = {
    size: options.batchSize ?? 100,
    interval: options.interval ?? 1000,
    maxQueueSize: options.maxQueueSize ?? 10_000,
    onFull: oneOf("onFull", options.onFull ?? "hybrid", ["block", "drop", "hybrid"] as const),
    critical: new Set(options.criticalEvents ?? DEFAULT_CRITICAL_EVENTS),
  };
  if (!(batching.size >= 1)) throw new RangeError(`batchSize must be >= 1, got ${batching.size}`);
  if (!(batching.interval > 0)) throw new RangeError(`interval must be > 0, got ${batching.interval}`);
  if (!(batching.maxQueueSize >= 1)) {
    throw new RangeError(`maxQueueSize must be >= 1, got ${batching.maxQueueSize}`);
  }
  return batching;
}

export class Session {
  readonly sessionId: string;
  readonly events: EventLog;
  /** The agents and tools used in this session, filled as engines run turns on it (LazyBridge's graph). */
  readonly graph: GraphSchema;
  readonly exporterFailures = new Map<string, number>();
  droppedByRedactor = 0;
  /** Events a full queue dropped, and how many of them were critical (only under `drop`). */
  droppedByBackPressure = 0;
  droppedCritical = 0;
  /** Batches the event log failed to write (warned once). */
  logFailures = 0;
  readonly #batching: Batching | undefined;
  readonly #queue: Queued[] = [];
  /** Producers waiting for room (block, or hybrid's critical events). */
  readonly #waitingForRoom: (() => void)[] = [];
  /** Wakes the drainer early when a batch is full. */
  #wake: (() => void) | undefined;
  #draining: Promise<void> | undefined;
  /** Flushes under way: while any is, the drainer does not wait for a batch to fill. */
  #flushing = 0;
  readonly #exporters: Exporter[];
  readonly #redact: Redactor | null;
  readonly #onError: "strict" | "fallback";
  readonly #warn: (line: string) => void;
  #redactorWarned = false;
  /** False from `close()` on: no event is taken any more. */
  #accepting = true;
  /** True once close has released the log: the drainer stops. */
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: SessionOptions = {}) {
    this.sessionId = options.sessionId ?? randomUUID();
    this.events = new EventLog(options.db ?? ":memory:", this.sessionId);
    this.graph = new GraphSchema(this.sessionId);
    this.#exporters = [...(options.exporters ?? []), ...(options.console ? [consoleExporter()] : [])];
    this.#redact = options.redact !== undefined
      ? options.redact
      : options.unsafeLogPayloads
      ? null
      : (p) => redactSecrets(p);
    // Checked at run time as LazyBridge does: the options often come from configuration, not typed code.
    this.#onError = oneOf(
      "redactOnError",
      options.redactOnError ?? "strict",
      ["strict", "fallback"] as const,
    );
    this.#warn = options.warn ?? ((line) => console.error(line));
    this.#batching = batchingOf(options);
  }

  /**
   * `ts` (seconds since the epoch) is now unless the event is a replay of something that happened earlier.
   * Batched, the promise settles once the event is queued (or dropped): only `block` and hybrid's critical
   * events ever wait for it.
   */
  emit(
    eventType: EventType | string,
    payload: Payload,
    runId: string | null = null,
    ts?: number,
  ): void | Promise<void> {
    if (!this.#accepting) throw new Error(`session ${this.sessionId} is closed`);
    const clean = this.#redacted(payload);
    if (!clean) return;
    const record: EventRecord = { eventType, payload: clean, runId, ...(ts !== undefined ? { ts } : {}) };
    const exported: ExportedEvent = {
      ...clean,
      event_type: eventType,
      session_id: this.sessionId,
      run_id: runId,
    };
    if (this.#batching) return this.#enqueue({ record, exported }, this.#batching);
    this.events.record(record);
    for (const exporter of this.#exporters) void this.#export(exporter, exported);
  }

  async #enqueue(item: Queued, batching: Batching): Promise<void> {
    const type = item.record.eventType;
    const waits = batching.onFull === "block" ||
      (batching.onFull === "hybrid" && batching.critical.has(type));
    while (this.#queue.length >= batching.maxQueueSize) {
      if (!waits) return this.#drop(type, batching);
      this.#startDrain(batching);
      await new Promise<void>((resolve) => this.#waitingForRoom.push(resolve));
    }
    this.#queue.push(item);
    if (this.#queue.length >= batching.size) this.#wake?.();
    this.#startDrain(batching);
  }

  #drop(eventType: string, batching: Batching): void {
    const n = ++this.droppedByBackPressure;
    if (batching.critical.has(eventType)) this.droppedCritical++;
    // On the first drop and at every doubling: saturation is visible without flooding the log.
    if ((n & (n - 1)) !== 0) return;
    const critical = this.droppedCritical ? ` (${this.droppedCritical} of them critical)` : "";
    this.#warn(
      `session-bridge: event queue full; dropped ${n} event(s)${critical} so far on session ${this.sessionId}` +
        ` (raise maxQueueSize, or onFull "hybrid" or "block")`,
    );
  }

  #startDrain(batching: Batching): void {
    this.#draining ??= this.#drain(batching).finally(() => (this.#draining = undefined));
  }

  async #drain(batching: Batching): Promise<void> {
    while (this.#queue.length && !this.#closed) {
      if (this.#queue.length < batching.size && !this.#flushing) {
        // The timer is cancelled when a full batch or a flush wakes the drainer: it must not hold the process.
        const timer = new AbortController();
        await Promise.race([
          delay(batching.interval, undefined, { signal: timer.signal }).catch(() => undefined),
          new Promise<void>((resolve) => (this.#wake = resolve)),
        ]);
        timer.abort();
        this.#wake = undefined;
      }
      const batch = this.#queue.splice(0, batching.size);
      // Room was made: let the waiting producers in, in order.
      for (const resolve of this.#waitingForRoom.splice(0, batch.length)) resolve();
      this.#record(batch.map((q) => q.record));
      for (const { exported } of batch) {
        for (const exporter of this.#exporters) {
          // Closed while an export was awaited (a flush that timed out): the rest is not delivered.
          if (this.#closed) return;
          await this.#export(exporter, exported);
        }
      }
    }
  }

  /** A log that cannot be written (disk full, closed) warns and is counted; it never rejects the drainer. */
  #record(records: EventRecord[]): void {
    try {
      this.events.recordMany(records);
    } catch (error) {
      this.logFailures++;
      if (this.logFailures === 1) {
        this.#warn(`session-bridge: event log ${this.events.path} failed (${messageOf(error)}); continuing`);
      }
    }
  }

  /**
   * Delivers every queued event (batched mode), waiting at most `timeoutMs`: a stuck exporter never blocks
   * forever. Whether everything queued was delivered in time (always, unbatched).
   */
  async flush(timeoutMs = DEFAULT_FLUSH_TIMEOUT_MS): Promise<boolean> {
    const batching = this.#batching;
    if (!batching || this.#closed) return this.#queue.length === 0;
    this.#flushing++;
    try {
      return await settlesWithin(this.#drainAll(batching), timeoutMs);
    } finally {
      this.#flushing--;
    }
  }

  async #drainAll(batching: Batching): Promise<void> {
    while ((this.#queue.length || this.#draining || this.#waitingForRoom.length) && !this.#closed) {
      this.#startDrain(batching);
      this.#wake?.();
      await this.#draining;
    }
  }

  #redacted(payload: Payload): Payload | undefined {
    if (!this.#redact) return payload;
    try {
      const clean: unknown = this.#redact(payload);
      // Anything but a plain object (null, a string...) is a redactor failure, as LazyBridge counts it.
      if (clean === null || typeof clean !== "object" || Array.isArray(clean)) {
        throw new TypeError(
          `redactor returned ${clean === null ? "null" : typeof clean}, expected an object`,
        );
      }
      return clean as Payload;
    } catch (error) {
      if (this.#onError === "fallback") {
        this.#warnRedactor(`redactor failed (${kindOf(error)}); recording the event unredacted (fallback)`);
        return payload;
      }
      this.droppedByRedactor++;
      this.#warnRedactor(`redactor failed (${kindOf(error)}); dropping the event everywhere (strict)`);
      return undefined;
    }
  }

  #warnRedactor(line: string): void {
    if (this.#redactorWarned) return;
    this.#redactorWarned = true;
    this.#warn(`session-bridge: ${line}`);
  }

  async #export(exporter: Exporter, event: ExportedEvent): Promise<void> {
    try {
      await exporter.export(event);
    } catch (error) {
      this.#countFailure(exporter, error, "failed");
    }
  }

  /** One warning per (exporter, error kind), the rest counted. */
  #countFailure(exporter: Exporter, error: unknown, what: string, why = ""): void {
    const key = `${exporter.name}\u0000${kindOf(error)}`;
    const seen = this.exporterFailures.get(key) ?? 0;
    this.exporterFailures.set(key, seen + 1);
    if (seen === 0) {
      this.#warn(`session-bridge: exporter ${exporter.name} ${what} (${kindOf(error)}${why}); continuing`);
    }
  }

  usageSummary(): UsageSummary {
    return usageSummary(this.events);
  }

  /** Adds an agent to the session's graph (an engine running a turn on the session adds itself). */
  registerAgent(agent: AgentLike): GraphNode {
    return this.graph.addAgentFrom(agent);
  }

  /** Records that one agent called another as a tool (each added to the graph if it is not there yet). */
  registerToolEdge(from: AgentLike, to: AgentLike, { label }: { label?: string } = {}): void {
    const [a, b] = [this.registerAgent(from), this.registerAgent(to)];
    this.graph.addEdge({ from: a.id, to: b.id, kind: "tool", ...(label ? { label } : {}) });
  }

  /**
   * Idempotent: every call returns the same promise. Events still queued are delivered first (batched mode)
   * for at most `timeoutMs`, after which what is left undelivered is warned about; then the log is released and
   * each exporter shut down (the promise resolves once each has). An exporter that fails to shut down is warned
   * about and counted, as a failed export. Never rejects. Emitting after `close()` is an error.
   */
  close(timeoutMs = DEFAULT_FLUSH_TIMEOUT_MS): Promise<void> {
    this.#closing ??= this.#shutDownAll(timeoutMs);
    return this.#closing;
  }

  async #shutDownAll(timeoutMs: number): Promise<void> {
    this.#accepting = false;
    if (this.#batching && (this.#queue.length || this.#draining)) await this.flush(timeoutMs);
    this.#closed = true;
    if (this.#queue.length) {
      this.#warn(
        `session-bridge: ${this.#queue.length} queued event(s) not delivered within ${timeoutMs} ms of close`,
      );
      this.#queue.length = 0;
    }
    this.#wake?.();
    for (const resolve of this.#waitingForRoom.splice(0)) resolve();
    try {
      this.events.close();
    } catch (error) {
      this.#warn(`session-bridge: event log ${this.events.path} failed to close (${messageOf(error)})`);
    }
    // An exporter's own shutdown is awaited in full: it bounds its own sending (OpenTelemetry's export timeout),
    // and cutting it short would hide why the last spans never arrived.
    await Promise.all(this.#exporters.map((exporter) => this.#shutDown(exporter)));
  }

  async #shutDown(exporter: Exporter): Promise<void> {
    try {
      await exporter.close?.();
    } catch (error) {
      // Why the shutdown failed is the news here (the last spans did not reach the collector, ...).
      const why = error instanceof Error ? `: ${error.message}` : "";
      this.#countFailure(exporter, error, "failed to close", why);
    }
  }

  /** Without awaiting: an exporter's asynchronous shutdown goes on in the background (`await using` waits). */
  [Symbol.dispose](): void {
    void this.close();
  }

  /** `await using`: every queued event delivered, then closed, exporters shut down (as `close()`). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Whether `promise` settles within `ms`; the timer is cancelled as soon as it does, so it holds no process. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      promise.then(() => true, () => true),
      delay(ms, false, { signal: timer.signal }).catch(() => false),
    ]);
  } finally {
    timer.abort();
  }
}

/** A value from a fixed set, or a RangeError naming the option and the values it takes. */
function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new RangeError(
    `${option} must be ${allowed.map((a) => `"${a}"`).join(", ")}; got ${JSON.stringify(value)}`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function kindOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

export function callbackExporter(fn: (event: ExportedEvent) => void, name = "callback"): Exporter {
  return { name, export: fn };
}

export function filteredExporter(inner: Exporter, eventTypes: readonly string[]): Exporter {
  const wanted = new Set(eventTypes);
  return {
    name: `filtered(${inner.name})`,
    export: (event) => wanted.has(event.event_type) ? inner.export(event) : undefined,
    close: () => inner.close?.(),
  };
}

/** One JSON object per line; the handle stays open until close. */
export function jsonlExporter(path: string): Exporter {
  const fd = openSync(path, "a", 0o600);
  let open = true;
  return {
    name: `jsonl(${path})`,
    export: (event) => void writeSync(fd, `${JSON.stringify(event)}\n`),
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** Where the structured-log exporter writes: `info` of any logger (console, pino, winston, bunyan...). */
export interface StructuredLogger {
  info(message: string): void;
}

export interface StructuredLogOptions {
  /** The logger; absent, one JSON record per line on stderr, naming `loggerName`. */
  logger?: StructuredLogger;
  loggerName?: string;
}

/**
 * LazyBridge's StructuredLogExporter: each event, as one JSON document, logged at info level to a named
 * logger. Python has one logging module to hand it to; here it is a logger of one's own, or, by default, a JSON
 * record per line on stderr (`{"time", "level", "logger", "message"}`, the message being the event's JSON) for
 * a log shipper to pick up.
 */
export function structuredLogExporter(options: StructuredLogOptions = {}): Exporter {
  const loggerName = options.loggerName ?? "session-bridge";
  const logger: StructuredLogger = options.logger ?? {
    info: (message) =>
      void process.stderr.write(
        `${JSON.stringify({ time: new Date().toISOString(), level: "info", logger: loggerName, message })}\n`,
      ),
  };
  return { name: `log(${loggerName})`, export: (event) => logger.info(JSON.stringify(event)) };
}

/** One human line per event, as LazyBridge's ConsoleExporter writes it (console-line.ts). */
export function consoleExporter(write: (line: string) => void = (line) => console.log(line)): Exporter {
  return { name: "console", export: (event) => write(consoleLine(event)) };
}
