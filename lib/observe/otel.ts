/**
 * The OpenTelemetry exporter for the event bus: events become spans with the GenAI semantic conventions, sent over
 * OTLP/HTTP (JSON) by the official packages. Span shape as LazyBridge's OTelExporter:
 *
 *   invoke_agent <agent>      one per run (agent_start .. agent_finish); a run whose payload names a
 *     ├─ chat <model>         `parent_run_id` is a child of that run's span
 *     └─ execute_tool <tool>  tool_call .. tool_result / tool_error / tool_timeout (by `call_id`)
 *
 * Import this module lazily (only when OpenTelemetry is asked for): it pulls in the SDK. The endpoint is the
 * `url` given, else the standard OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT variables;
 * OTEL_EXPORTER_OTLP_HEADERS always applies. `close()` ends every span still open (no orphans), flushes and
 * resolves once the collector has answered, or rejects naming the failed export.
 */
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from "@opentelemetry/semantic-conventions/incubating";
import type { JsonValue } from "./redact.ts";
import type { ExportedEvent, Exporter } from "./session.ts";

/** Ours, under a prefix of our own so nobody mistakes them for a future GenAI name. */
const ATTR_RUN_ID = "session_bridge.run_id";
const ATTR_COST_USD = "session_bridge.cost_usd";
/** recorded (by the harness), estimated (from the dated price table) or unpriced. */
const ATTR_COST_BASIS = "session_bridge.cost_basis";
const ATTR_USAGE_SCOPE = "session_bridge.usage_scope";
const ATTR_TASK = "session_bridge.task";
const ATTR_TOOL_ARGUMENTS = "gen_ai.tool.call.arguments";
const ATTR_TOOL_RESULT = "gen_ai.tool.call.result";
/** Text goes on spans already redacted by the bus; the cap keeps one huge tool output from sinking a batch. */
const MAX_TEXT = 4096;
const TRACES_PATH = "v1/traces";
/** A replay emits synchronously, before any batch can leave: the queue must hold a whole long session. */
const MAX_QUEUED_SPANS = 100_000;

export interface OtelExporterOptions {
  /** A collector's OTLP/HTTP endpoint (`http://host:4318`, `/v1/traces` added) or full traces URL. */
  url?: string;
  /** Extra headers, on top of OTEL_EXPORTER_OTLP_HEADERS. */
  headers?: Record<string, string>;
  serviceName?: string;
  /** When an event happened (seconds since the epoch), for a replay; now when absent or undefined. */
  timeOf?: (event: ExportedEvent) => number | undefined;
  /** For tests: a span exporter of one's own instead of OTLP/HTTP. */
  spanExporter?: SpanExporter;
}

export interface OtelExporter extends Exporter {
  /** Ends open spans, flushes, shuts down; idempotent (the same promise every time). */
  close(): Promise<void>;
}

/** A collector base URL gets the standard traces path, as OTEL_EXPORTER_OTLP_ENDPOINT does. */
export function tracesUrl(url: string): string {
  const parsed = new URL(url);
  // Trailing slashes go; the look-behind tries each run of slashes once, not from each of its slashes.
  const base = parsed.pathname.replace(/(?<!\/)\/+$/, "");
  if (base.endsWith(`/${TRACES_PATH}`)) return parsed.href;
  parsed.pathname = `${base}/${TRACES_PATH}`;
  return parsed.href;
}

export function otelExporter(options: OtelExporterOptions = {}): OtelExporter {
  const failures: string[] = [];
  const inner = options.spanExporter ?? new OTLPTraceExporter({
    ...(options.url ? { url: tracesUrl(options.url) } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName ?? "session-bridge" }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: recordingFailures(inner, failures),
        maxQueueSize: MAX_QUEUED_SPANS,
      }),
    ],
  });
  const tracer = provider.getTracer("session-bridge");
  const spans = new SpanRegistry();
  let closing: Promise<void> | undefined;

  // No parent: a root of its own trace, whatever context the caller runs in.
  const startSpan = (name: string, attributes: Attributes, time: number, parent: Context | undefined) =>
    tracer.startSpan(name, { attributes, startTime: time, root: !parent }, parent);

  const handlers: Record<string, (e: ExportedEvent, time: number) => void> = {
    agent_start(e, time) {
      const runId = e.run_id ?? "unknown";
      const agent = text(e.agent_name) ?? "agent";
      const parentRun = text(e.parent_run_id);
      spans.startRun(
        runId,
        startSpan(
          `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agent}`,
          {
            [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
            [ATTR_GEN_AI_AGENT_NAME]: agent,
            [ATTR_GEN_AI_CONVERSATION_ID]: e.session_id,
            [ATTR_RUN_ID]: runId,
            ...providerAttributes(text(e.provider)),
            ...defined(ATTR_GEN_AI_REQUEST_MODEL, text(e.model)),
            ...defined(ATTR_TASK, clip(e.task)),
          },
          time,
          parentRun ? spans.contextOf(parentRun) : undefined,
        ),
        text(e.provider),
      );
    },
    agent_finish(e, time) {
      spans.endRun(e.run_id ?? "unknown", time);
    },
    agent_error(e, time) {
      spans.endRun(e.run_id ?? "unknown", time, text(e.error) ?? "agent_error");
    },
    model_response(e, time) {
      const model = text(e.model);
      const provider = spans.providerOf(e.run_id) ?? text(e.provider);
      startSpan(
        `${GEN_AI_OPERATION_NAME_VALUE_CHAT}${model ? ` ${model}` : ""}`,
        {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
          [ATTR_GEN_AI_CONVERSATION_ID]: e.session_id,
          ...providerAttributes(provider),
          ...defined(ATTR_GEN_AI_REQUEST_MODEL, model),
          ...defined(ATTR_GEN_AI_RESPONSE_MODEL, model),
          ...defined(ATTR_GEN_AI_AGENT_NAME, text(e.agent_name)),
          ...defined(ATTR_GEN_AI_USAGE_INPUT_TOKENS, num(e.input_tokens)),
          ...defined(ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, num(e.output_tokens)),
          ...defined(ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, num(e.cache_read_tokens)),
          ...defined(ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, num(e.cache_write_tokens)),
          ...defined(ATTR_COST_USD, num(e.cost_usd)),
          ...defined(ATTR_COST_BASIS, text(e.cost_basis)),
          ...defined(ATTR_USAGE_SCOPE, text(e.usage_scope)),
          ...defined(ATTR_RUN_ID, e.run_id ?? undefined),
        },
        time,
        spans.contextOf(e.run_id),
      ).end(time);
    },
    tool_call(e, time) {
      const tool = text(e.tool) ?? text(e.tool_name) ?? "tool";
      const callId = text(e.call_id) ?? text(e.tool_use_id) ?? `${e.run_id}:${tool}`;
      spans.startTool(
        callId,
        e.run_id,
        startSpan(
          `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${tool}`,
          {
            [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
            [ATTR_GEN_AI_TOOL_NAME]: tool,
            [ATTR_GEN_AI_TOOL_CALL_ID]: callId,
            [ATTR_GEN_AI_CONVERSATION_ID]: e.session_id,
            ...defined(ATTR_RUN_ID, e.run_id ?? undefined),
            ...defined(ATTR_TOOL_ARGUMENTS, clip(e.arguments)),
          },
          time,
          spans.contextOf(e.run_id),
        ),
      );
    },
    tool_result(e, time) {
      spans.endTool(text(e.call_id) ?? text(e.tool_use_id), time, { result: clip(e.result) });
    },
    tool_error(e, time) {
      spans.endTool(text(e.call_id) ?? text(e.tool_use_id), time, { error: clip(e.error) ?? "tool_error" });
    },
    tool_timeout(e, time) {
      spans.endTool(text(e.call_id) ?? text(e.tool_use_id), time, { error: "tool_timeout" });
    },
  };

  return {
    name: "otel",
    export(event) {
      if (closing) throw new Error("the OpenTelemetry exporter is closed");
      const at = options.timeOf?.(event);
      const time = at === undefined ? Date.now() : at * 1000;
      spans.lastTime = Math.max(spans.lastTime, time);
      handlers[event.event_type]?.(event, time);
    },
    close() {
      closing ??= (async () => {
        spans.endAll(spans.lastTime || Date.now());
        await provider.shutdown().catch((error: unknown) => void failures.push(String(error)));
        if (failures.length) throw new Error(`OpenTelemetry export failed: ${failures[0]}`);
      })();
      return closing;
    },
  };
}

/** Open spans by run and by tool call; runs keep their context after they end, for late nested runs. */
class SpanRegistry {
  readonly #runs = new Map<string, { span: Span; open: boolean; provider: string | undefined }>();
  readonly #tools = new Map<string, { span: Span; runId: string | null }>();
  lastTime = 0;

  startRun(runId: string, span: Span, provider: string | undefined): void {
    const previous = this.#runs.get(runId);
    if (previous?.open) previous.span.end();
    this.#runs.set(runId, { span, open: true, provider });
  }

  contextOf(runId: string | null | undefined): Context | undefined {
    const run = runId ? this.#runs.get(runId) : undefined;
    return run ? trace.setSpan(ROOT_CONTEXT, run.span) : undefined;
  }

  providerOf(runId: string | null | undefined): string | undefined {
    return runId ? this.#runs.get(runId)?.provider : undefined;
  }

  endRun(runId: string, time: number, error?: string): void {
    const run = this.#runs.get(runId);
    if (!run?.open) return;
    for (const [callId, tool] of this.#tools) if (tool.runId === runId) this.endTool(callId, time, {});
    if (error) run.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    run.span.end(time);
    run.open = false;
  }

  startTool(callId: string, runId: string | null, span: Span): void {
    this.#tools.get(callId)?.span.end();
    this.#tools.set(callId, { span, runId });
  }

  endTool(callId: string | undefined, time: number, outcome: { result?: string; error?: string }): void {
    const tool = callId ? this.#tools.get(callId) : undefined;
    if (!tool) return;
    if (outcome.result !== undefined) tool.span.setAttribute(ATTR_TOOL_RESULT, outcome.result);
    if (outcome.error !== undefined) {
      tool.span.setAttribute(ATTR_ERROR_TYPE, "tool_error");
      tool.span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    }
    tool.span.end(time);
    this.#tools.delete(callId!);
  }

  /** Tools first, so no child outlives its run's span. */
  endAll(time: number): void {
    for (const callId of [...this.#tools.keys()]) this.endTool(callId, time, {});
    for (const runId of this.#runs.keys()) this.endRun(runId, time);
  }
}

/** Export results are otherwise only logged by the SDK's diagnostics; keep the first failures for close(). */
function recordingFailures(inner: SpanExporter, failures: string[]): SpanExporter {
  return {
    export(spans, done) {
      inner.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0.
        if (result.code !== 0) failures.push(result.error?.message ?? "the collector refused the spans");
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/** `gen_ai.system` is what dashboards still filter on; `gen_ai.provider.name` is its newer name. */
function providerAttributes(provider: string | undefined): Attributes {
  return provider ? { [ATTR_GEN_AI_SYSTEM]: provider, [ATTR_GEN_AI_PROVIDER_NAME]: provider } : {};
}

function defined(key: string, value: string | number | undefined): Attributes {
  return value === undefined ? {} : { [key]: value };
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}

function num(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function clip(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const s = typeof value === "string" ? value : JSON.stringify(value);
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s;
}
