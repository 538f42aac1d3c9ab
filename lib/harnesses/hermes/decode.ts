/**
 * A Hermes conversation into the IR. The live thread is what `hermes --resume` loads: the active rows of the
 * live session, in id order. A compression chain is stitched into this one session: its predecessors' rows,
 * rows compacted in place (`active = 0, compacted = 1`) and rows rewound away (`active = 0, compacted = 0`) are
 * kept apart as threads, so they are reported and never replayed as live history.
 */
import type { DriftEntry, Message, Session, Thread, Usage } from "../../ir/schema.ts";
import { findPending } from "../../ir/pending.ts";
import { modelsOf, titleFromFirstUserText } from "../../ir/summary.ts";
import { type HermesMessage, isActive, isMetaRow, type SessionRecord } from "./message.ts";
import type { HermesSource } from "./source.ts";
import { providerFamily, toMessage } from "./to-ir.ts";
import { isoTime } from "../../ir/clock.ts";

/** The sessions columns the IR is built from, by the type Hermes writes them with. */
const TEXT_COLUMNS = ["model", "billing_provider", "system_prompt", "source", "title", "cwd"] as const;
const NUMBER_COLUMNS = [
  "started_at",
  "ended_at",
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "actual_cost_usd",
  "estimated_cost_usd",
] as const;

/**
 * A sessions row with a column of the wrong type (an edited export, a damaged database) left out, as if absent:
 * the drift report names it, and nothing downstream meets a list where a model name or a count should be.
 */
function typedColumns(record: SessionRecord): SessionRecord {
  const typed: Record<string, unknown> = { ...record };
  for (const c of TEXT_COLUMNS) if (typed[c] !== undefined && typeof typed[c] !== "string") delete typed[c];
  for (const c of NUMBER_COLUMNS) {
    if (typed[c] !== undefined && (typeof typed[c] !== "number" || !Number.isFinite(typed[c]))) {
      delete typed[c];
    }
  }
  return typed as SessionRecord;
}

const iso = (seconds: unknown): string | undefined =>
  typeof seconds === "number" && seconds > 0 ? isoTime(seconds * 1000) : undefined;

/** A Hermes conversation from its source's rows, as the store loaded them (source.ts): nothing is read here. */
export function decodeHermes(source: HermesSource): Session {
  const chain = source.chain.map(typedColumns);
  const live = chain.at(-1)!;
  const models = new Map(chain.map((s) => [s.id, s.model ?? live.model ?? undefined]));
  const provider = providerFamily(live.billing_provider);
  const messages: Message[] = [];
  const apart = new Map<string, Thread>();
  const unknownRoles: number[] = [];
  let index = 0;
  let newest = 0;
  for (const row of source.messages()) {
    index++;
    if (isMetaRow(row)) continue;
    const sessionId = typeof row.session_id === "string" ? row.session_id : live.id;
    const message = toMessage(row, {
      uid: `${sessionId}:${typeof row.id === "number" ? row.id : index}`,
      model: models.get(sessionId) ?? undefined,
      provider,
    });
    if (!message) {
      unknownRoles.push(typeof row.id === "number" ? row.id : index);
      continue;
    }
    if (typeof row.timestamp === "number") newest = Math.max(newest, row.timestamp);
    const thread = threadOf(row, sessionId, live.id, apart);
    const list = thread ? thread.messages : messages;
    message.parentUid = list.at(-1)?.uid ?? null;
    list.push(message);
  }
  const session: Session = {
    meta: {
      harness: "hermes",
      ...(source.schemaVersion !== undefined ? { harnessVersion: `state.db v${source.schemaVersion}` } : {}),
      id: live.id,
      path: source.path,
      models: [],
      ...defined({
        cwd: cwdOf(chain),
        provider: live.billing_provider ?? undefined,
        systemInstructions: live.system_prompt ?? undefined,
        createdAt: iso(chain[0]!.started_at),
        updatedAt: iso(newest) ?? iso(live.ended_at) ?? iso(live.started_at),
        usage: usageOf(chain),
        source: live.source ?? undefined,
        costUsd: costOf(chain),
      }),
    },
    messages,
    threads: [...apart.values()],
    tools: source.tools,
    pending: findPending(messages, [], cutOff(messages)),
    passthrough: [],
    drift: [...source.drift, ...roleDrift(source, unknownRoles)],
    notices: source.notices,
  };
  session.meta.models = modelsOf(messages);
  const title = [...chain].reverse().find((s) => s.title)?.title ?? titleFromFirstUserText(session);
  if (title) session.meta.title = title;
  return session;
}

/**
 * Where the rows show a turn was cut off. Hermes answers every call it starts or cancels itself (an interrupted
 * command gets `[Command interrupted]`, a skipped one a "skipped"/"cancelled" result, then the turn closes with
 * "Operation interrupted."), so a call with no answer at all, followed by more of the conversation, was cut
 * off outside Hermes's own flow: its process was killed mid-call, or it came from another harness through a
 * handoff and Hermes resumed it (its stand-in answer on resume, "[Result unavailable — see context summary
 * above]", is sent to the model but never stored). Such a call is still pending wherever it sits.
 */
function cutOff(messages: Message[]): number[] {
  const answered = new Set(
    messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "tool_result" ? [b.callId] : []))),
  );
  return messages.flatMap((m, index) =>
    m.role === "assistant" && index < messages.length - 1 &&
      m.blocks.some((b) => b.type === "tool_call" && !answered.has(b.id))
      ? [index + 1]
      : []
  );
}

/** Where a row belongs when it is not live: its predecessor session, or what compaction or a rewind set aside. */
function threadOf(
  row: HermesMessage,
  sessionId: string,
  liveId: string,
  apart: Map<string, Thread>,
): Thread | undefined {
  const active = isActive(row);
  if (active && sessionId === liveId) return undefined;
  const [id, kind]: [string, Thread["kind"]] = active
    ? [sessionId, "compacted"]
    : row.compacted === 1
    ? [`${sessionId}:compacted`, "compacted"]
    : [`${sessionId}:rewound`, "abandoned-branch"];
  let thread = apart.get(id);
  if (!thread) apart.set(id, thread = { id, kind, messages: [] });
  return thread;
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The `cwd` column, or (before it existed) the working directory line of the stored system prompt. */
function cwdOf(chain: SessionRecord[]): string | undefined {
  for (const s of [...chain].reverse()) {
    if (s.cwd) return s.cwd;
    const line = /^Current working directory: (.+)$/m.exec(s.system_prompt ?? "");
    if (line) return line[1]!.trim();
  }
  return undefined;
}

function usageOf(chain: SessionRecord[]): Usage | undefined {
  if (!chain.some((s) => typeof s.input_tokens === "number")) return undefined;
  const sum = (key: "input_tokens" | "output_tokens" | "cache_read_tokens" | "cache_write_tokens") =>
    chain.reduce((n, s) => n + (s[key] ?? 0), 0);
  return {
    inputTokens: sum("input_tokens"),
    outputTokens: sum("output_tokens"),
    cacheReadTokens: sum("cache_read_tokens"),
    cacheWriteTokens: sum("cache_write_tokens"),
  };
}

/** The recorded cost: actual where the provider reported one, else Hermes's estimate. */
function costOf(chain: SessionRecord[]): number | undefined {
  const costs = chain.map((s) => s.actual_cost_usd ?? s.estimated_cost_usd).filter((c) =>
    typeof c === "number"
  );
  return costs.length ? costs.reduce((a, b) => a + b, 0) : undefined;
}

function roleDrift(source: HermesSource, rows: number[]): DriftEntry[] {
  if (!rows.length) return [];
  return [{
    harness: "hermes",
    version: source.version,
    where: "record:messages-row",
    problem: "unknown role (not sent to the model, not carried)",
    count: rows.length,
    examples: rows.slice(0, 3),
  }];
}
