/**
 * One Hermes message to one IR message. Reasoning keeps its provider-bound proofs (Anthropic thinking
 * signatures in `reasoning_details`, OpenAI encrypted items in `codex_reasoning_items`) tagged with the
 * provider that minted them, so only a target on that provider ever gets them back.
 */
import type { Block, Message, ReasoningBlock, ToolResultPart } from "../../ir/schema.ts";
import { HANDSHAKE_OPEN } from "../../handshake/handshake.ts";
import { unmarkFailure } from "../../ir/tool-failure.ts";
import { blocksFromContent } from "./content.ts";
import { type HermesMessage, parseJson } from "./message.ts";
import { isObject, type Json, parseEmbeddedJson, str } from "../../io/json.ts";
import { isoTime } from "../../ir/clock.ts";
import { COMPACTION_MARKER, unwrappedSummary } from "./summary-words.ts";

type Provider = ReasoningBlock["provider"];

/** Hermes's own control prompts to the model (continuations after a cut-off stream, tool-size hints). */
const CONTROL_PROMPT = /^\[System:/;

/** The provider family behind a Hermes billing provider, for reasoning that carries no format of its own. */
export function providerFamily(billingProvider: unknown): Provider {
  const name = str(billingProvider).toLowerCase();
  if (name.includes("anthropic")) return "anthropic";
  if (name === "openai" || name.includes("codex")) return "openai";
  return "other";
}

export interface MessageContext {
  uid: string;
  model?: string;
  /** Provider family of the session, for reasoning without a format. */
  provider: Provider;
}

/** An IR message, or undefined for a role Hermes does not send to the model (reported as drift). */
export function toMessage(row: HermesMessage, context: MessageContext): Message | undefined {
  const base = {
    uid: context.uid,
    parentUid: null,
    ...(typeof row.timestamp === "number" && isoTime(row.timestamp * 1000)
      ? { timestamp: isoTime(row.timestamp * 1000) }
      : {}),
  };
  switch (row.role) {
    case "user": {
      const blocks = blocksFromContent(row.content);
      const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
      // An earlier hop's handshake is harness text too: the next writer drops it rather than replaying it.
      // A summary standing alone in Hermes's words is read as the summary it wraps (Hermes's compaction
      // summary, agent/context_compressor.py: the message that replaced older turns).
      const summary = unwrappedSummary(text);
      if (summary !== undefined) {
        return { ...base, role: "user", kind: "summary", blocks: [{ type: "text", text: summary }] };
      }
      const kind = text.includes(COMPACTION_MARKER)
        ? "summary"
        : CONTROL_PROMPT.test(text) || text.trimStart().startsWith(HANDSHAKE_OPEN)
        ? "context"
        : "turn";
      return { ...base, role: "user", kind, blocks };
    }
    case "system":
      return { ...base, role: "system", kind: "context", blocks: blocksFromContent(row.content) };
    case "assistant": {
      const blocks: Block[] = [...reasoningBlocks(row, context.provider), ...blocksFromContent(row.content)];
      blocks.push(...toolCalls(row.tool_calls));
      const summary = blocks.some((b) => b.type === "text" && b.text.includes(COMPACTION_MARKER));
      return {
        ...base,
        role: "assistant",
        kind: summary ? "summary" : "turn",
        blocks,
        ...(context.model ? { model: context.model } : {}),
      };
    }
    case "tool": {
      const { parts, failed } = unmarkFailure(blocksFromContent(row.content) as ToolResultPart[]);
      return {
        ...base,
        role: "tool",
        kind: "turn",
        blocks: [{ type: "tool_result", callId: str(row.tool_call_id), isError: failed, content: parts }],
      };
    }
    default:
      return undefined;
  }
}

function toolCalls(value: unknown): Block[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((call): Block => {
    const fn = isObject(call.function) ? call.function : {};
    return {
      type: "tool_call",
      id: str(call.id) || str(call.call_id),
      name: str(fn.name),
      input: parseArguments(fn.arguments),
    };
  });
}

/** `arguments` is a JSON string; one that does not parse is kept as the string the model wrote. */
function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value ?? {};
  return parseEmbeddedJson(value);
}

/** A JSON column's objects, whether it arrives as text (rows, exports) or parsed (snapshots, transcripts). */
function list(value: unknown): Json[] {
  const parsed = parseJson(value);
  return Array.isArray(parsed) ? parsed.filter(isObject) : [];
}

/** The provider family a reasoning detail's `format` names (OpenRouter: `anthropic-claude-v1`, ...). */
function formatProvider(format: unknown, fallback: Provider): Provider {
  const f = str(format).toLowerCase();
  return f.startsWith("anthropic") ? "anthropic" : f.startsWith("openai") ? "openai" : fallback;
}

/**
 * Reasoning from the richest field present: provider detail objects, then Responses reasoning items, then the
 * plain `reasoning_content` / `reasoning` text (Hermes stores streamed reasoning in both).
 */
function reasoningBlocks(row: HermesMessage, provider: Provider): ReasoningBlock[] {
  const blocks: ReasoningBlock[] = [];
  for (const d of list(row.reasoning_details)) {
    const from = formatProvider(
      d.format,
      d.type === "thinking" || d.type === "redacted_thinking" ? "anthropic" : provider,
    );
    const proof = {
      ...(str(d.signature) ? { signature: str(d.signature) } : {}),
      ...(str(d.data) ? { encrypted: str(d.data) } : {}),
    };
    const text = str(d.thinking) || str(d.text) || str(d.summary);
    if (text || proof.signature || proof.encrypted) {
      blocks.push({ type: "reasoning", text, ...proof, provider: from });
    }
  }
  for (const item of list(row.codex_reasoning_items)) {
    const summary = Array.isArray(item.summary) ? item.summary.filter(isObject).map((s) => str(s.text)) : [];
    blocks.push({
      type: "reasoning",
      text: summary.join("\n"),
      ...(str(item.encrypted_content) ? { encrypted: str(item.encrypted_content) } : {}),
      provider: "openai",
    });
  }
  const text = str(row.reasoning_content) || str(row.reasoning);
  if (text && !blocks.some((b) => b.text)) blocks.unshift({ type: "reasoning", text, provider });
  return blocks;
}
