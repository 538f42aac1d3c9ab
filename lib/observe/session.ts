/**
 * The event bus, as LazyBridge's Session: redact, record, export. Redaction is on by default (`redact: null`
 * opts out; a custom redactor replaces the default, it is not stacked). A failing redactor under `strict`
 * (default) drops the event everywhere with one warning; under `fallback` the event goes on unredacted.
 * An exporter that throws never stops the others: one warning per (exporter, error kind), the rest counted.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { EventLog, type EventType, type Payload, type UsageSummary, usageSummary } from "./event-log.ts";
import { redactSecrets } from "./redact.ts";

/** What exporters receive: `{event_type, session_id, run_id, ...payload}`. */
export type ExportedEvent = Payload & { event_type: string; session_id: string; run_id: string | null };

export interface Exporter {
  readonly name: string;
  export(event: ExportedEvent): void;
  close?(): void;
}

export type Redactor = (payload: Payload) => Payload;

export interface SessionOptions {
  sessionId: string;
  /** SQLite file (or ":memory:") for the event log; none keeps events only in exporters. */
  db?: string;
  exporters?: Exporter[];
  /** Absent: the default secret redactor. `null`: no redaction. */
  redact?: Redactor | null;
  redactOnError?: "strict" | "fallback";
  /** Where warnings go (stderr by default). */
  warn?: (line: string) => void;
}

export class Session {
  readonly sessionId: string;
  readonly events: EventLog | undefined;
  readonly exporterFailures = new Map<string, number>();
  droppedByRedactor = 0;
  readonly #exporters: Exporter[];
  readonly #redact: Redactor | null;
  readonly #onError: "strict" | "fallback";
  readonly #warn: (line: string) => void;
  #redactorWarned = false;
  #closed = false;

  constructor(options: SessionOptions) {
    this.sessionId = options.sessionId;
    this.events = options.db ? new EventLog(options.db, options.sessionId) : undefined;
    this.#exporters = [...(options.exporters ?? [])];
    this.#redact = options.redact === undefined ? (p) => redactSecrets(p) : options.redact;
    this.#onError = options.redactOnError ?? "strict";
    this.#warn = options.warn ?? ((line) => console.error(line));
  }

  /** `ts` (seconds since the epoch) is now unless the event is a replay of something that happened earlier. */
  emit(eventType: EventType | string, payload: Payload, runId: string | null = null, ts?: number): void {
    if (this.#closed) throw new Error(`session ${this.sessionId} is closed`);
    const clean = this.#redacted(payload);
    if (!clean) return;
    this.events?.record({ eventType, payload: clean, runId, ...(ts !== undefined ? { ts } : {}) });
    const exported: ExportedEvent = {
      ...clean,
      event_type: eventType,
      session_id: this.sessionId,
      run_id: runId,
    };
    for (const exporter of this.#exporters) this.#export(exporter, exported);
  }

  #redacted(payload: Payload): Payload | undefined {
    if (!this.#redact) return payload;
    try {
      return this.#redact(payload);
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

  #export(exporter: Exporter, event: ExportedEvent): void {
    try {
      exporter.export(event);
    } catch (error) {
      const key = `${exporter.name}\u0000${kindOf(error)}`;
      const seen = this.exporterFailures.get(key) ?? 0;
      this.exporterFailures.set(key, seen + 1);
      if (seen === 0) {
        this.#warn(`session-bridge: exporter ${exporter.name} failed (${kindOf(error)}); continuing`);
      }
    }
  }

  usageSummary(): UsageSummary {
    if (!this.events) throw new Error("usageSummary needs an event log (db)");
    return usageSummary(this.events);
  }

  /** Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const exporter of this.#exporters) exporter.close?.();
    this.events?.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
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

/** One human line per event. */
export function consoleExporter(write: (line: string) => void = (line) => console.log(line)): Exporter {
  return {
    name: "console",
    export: ({ event_type, run_id, session_id: _s, ...payload }) =>
      write(terminalSafe(`[${event_type}]${run_id ? ` run=${run_id}` : ""} ${JSON.stringify(payload)}`)),
  };
}

/** JSON already escapes C0 controls; C1 controls and bidi overrides could still steer a terminal. */
function terminalSafe(line: string): string {
  return line.replace(
    /[\u0080-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
