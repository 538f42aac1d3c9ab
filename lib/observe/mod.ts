/**
 * The event layer as a library (`session-bridge/observe`): LazyBridge's Session bus, EventLog and EventType,
 * the secret redactor, the replay of a harness session as events, usage across sessions and the session graph.
 * Kept apart from the main entry so its names stay LazyBridge's (`Session` here is the event bus, not the IR's
 * conversation) and importing the pipeline does not load it. The OpenTelemetry exporter is its own entry,
 * `session-bridge/observe/otel`, so the OpenTelemetry SDK loads only for those who use it.
 */
export {
  callbackExporter,
  consoleExporter,
  DEFAULT_CRITICAL_EVENTS,
  type ExportedEvent,
  type Exporter,
  filteredExporter,
  jsonlExporter,
  type Redactor,
  Session,
  type SessionOptions,
  structuredLogExporter,
  type StructuredLogger,
  type StructuredLogOptions,
} from "./session.ts";
export {
  EventLog,
  type EventRecord,
  EventType,
  type Payload,
  type StoredEvent,
  type UsageSummary,
  usageSummary,
  type UsageTotals,
} from "./event-log.ts";
export {
  DEFAULT_PATTERNS,
  EXTRA_PATTERNS,
  type JsonValue,
  LAZYBRIDGE_PATTERNS,
  redactCounting,
  redactSecrets,
  redactString,
  type SecretPattern,
} from "./redact.ts";
export { redactSession } from "./redact-transcript.ts";
export { type ReplayOptions, replaySession } from "./replay.ts";
export { usageAcross, type UsageGroup, type UsageRequest } from "./usage.ts";
export {
  type EdgeKind,
  type GraphEdge,
  type GraphJson,
  type GraphNode,
  GraphSchema,
  type NodeKind,
} from "./graph.ts";
export { sessionGraph } from "./session-graph.ts";
