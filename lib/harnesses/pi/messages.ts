/**
 * Pi's entries as IR messages, pure: what each entry that reaches the model is, in the IR's terms
 * (`convertToLlm`, 0.73.1). A `message` entry holds one AgentMessage: `user` (the person's words),
 * `assistant` (one model call: its thinking, text and tool calls together), `toolResult` (one call's result),
 * `bashExecution` (a `!command` typed in the TUI, sent as the user's), `custom` (an extension's). A
 * `compaction` and a `branch_summary` are summaries of history the thread no longer holds; a `custom_message`
 * is an extension's message. Everything else (model and thinking level changes, names, labels, extension
 * state) reaches no model.
 */
import type { Block, Message, ReasoningBlock, ToolResultPart, Usage } from "../../ir/schema.ts";
import type { Origin } from "../../ir/schema.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { startsWithHandshake } from "../../handshake/handshake.ts";
import { piModelId } from "./models.ts";

const HARNESS = "pi";

/** What a message takes from its entry. */
export type Base = Pick<Message, "uid" | "parentUid" | "origin" | "timestamp">;

/** The entry kinds that put a message in the model's context (`appendMessage` in `buildSessionContext`). */
export const MESSAGE_ENTRIES: ReadonlySet<string> = new Set([
  "message",
  "compaction",
  "branch_summary",
  "custom_message",
]);

export const origin = (path: string, e: { offset: number; length: number; type: string }): Origin => ({
  harness: HARNESS,
  path,
  offset: e.offset,
  length: e.length,
  type: e.type,
});

/** A `message` entry's AgentMessage, when it is one. */
export function agentMessage(entry: Json): Json | undefined {
  return isObject(entry.message) ? entry.message : undefined;
}

/** Whether an assistant message is one Pi never sends again: a call that failed or was aborted. */
export const isAbandonedResponse = (message: Json): boolean =>
  message.role === "assistant" && (message.stopReason === "error" || message.stopReason === "aborted");

/** The IR message of an entry, or none when it holds nothing the model sees. */
export function entryMessage(type: string, entry: Json, base: Base): Message | undefined {
  switch (type) {
    case "message": {
      const message = agentMessage(entry);
      return message ? agentToIr(message, base) : rawMessage(base, "message", entry);
    }
    case "compaction":
    case "branch_summary": {
      const summary = optStr(entry.summary);
      return summary
        ? { ...base, role: "user", kind: "summary", blocks: [{ type: "text", text: summary }] }
        : undefined;
    }
    case "custom_message":
      return contextMessage(base, entry.content);
    default:
      return undefined;
  }
}

function agentToIr(message: Json, base: Base): Message | undefined {
  switch (message.role) {
    case "user": {
      const blocks = contentBlocks(message.content);
      const handshake = blocks.some((b) => b.type === "text" && startsWithHandshake(b.text));
      return { ...base, role: "user", kind: handshake ? "context" : "turn", blocks };
    }
    case "assistant":
      return assistantToIr(message, base);
    case "toolResult":
      return {
        ...base,
        role: "tool",
        kind: "turn",
        blocks: [{
          type: "tool_result",
          callId: optStr(message.toolCallId) ?? "",
          isError: message.isError === true,
          content: contentBlocks(message.content).filter(isResultPart),
        }],
      };
    case "bashExecution":
      // `!!command` keeps its output out of the model's context.
      if (message.excludeFromContext === true) return undefined;
      return {
        ...base,
        role: "user",
        kind: "turn",
        blocks: [{ type: "text", text: bashExecutionText(message) }],
      };
    case "custom":
    case "hookMessage":
      return contextMessage(base, message.content);
    default:
      return rawMessage(base, String(message.role ?? "message"), message);
  }
}

function assistantToIr(message: Json, base: Base): Message {
  const reasoningProvider = proofProvider(message);
  const blocks: Block[] = [];
  for (const part of Array.isArray(message.content) ? message.content : []) {
    if (!isObject(part)) continue;
    switch (part.type) {
      case "text":
        blocks.push({ type: "text", text: typeof part.text === "string" ? part.text : "" });
        break;
      case "thinking": {
        const block = reasoningBlock(part, reasoningProvider);
        if (block) blocks.push(block);
        break;
      }
      case "toolCall":
        blocks.push({
          type: "tool_call",
          id: optStr(part.id) ?? "",
          name: optStr(part.name) ?? "",
          input: part.arguments ?? {},
        });
        break;
      default:
        blocks.push({ type: "raw", harness: HARNESS, kind: String(part.type ?? "part"), value: part });
    }
  }
  const model = piModelId(optStr(message.provider), optStr(message.model));
  const usage = usageOf(message.usage);
  const responseId = optStr(message.responseId);
  return {
    ...base,
    role: "assistant",
    kind: "turn",
    blocks,
    ...(model ? { model } : {}),
    ...(responseId ? { providerMessageId: responseId } : {}),
    ...(usage ? { usage } : {}),
  };
}

/**
 * The provider whose proof a thinking block's signature is: Anthropic's on its own Messages API (a signature,
 * or a redacted block's data); anywhere else the signature is no proof a provider checks (with
 * `openai-completions` it is the name of the field the reasoning came in), so the block is text.
 */
function proofProvider(message: Json): string | undefined {
  return message.api === "anthropic-messages" && message.provider === "anthropic" ? "anthropic" : undefined;
}

function reasoningBlock(part: Json, provider: string | undefined): ReasoningBlock | undefined {
  const text = typeof part.thinking === "string" ? part.thinking : "";
  const signature = optStr(part.thinkingSignature);
  if (provider && signature) {
    return part.redacted === true
      ? { type: "reasoning", text: "", encrypted: signature, provider }
      : { type: "reasoning", text, signature, provider };
  }
  // Redacted thinking without a provider's proof is nothing anyone can read or replay.
  if (part.redacted === true || !text.trim()) return undefined;
  return { type: "reasoning", text, provider: "other" };
}

/** Pi's usage (`input` without the cached part, as the IR counts it); the engine's live events read it too. */
export function usageOf(usage: unknown): Usage | undefined {
  if (!isObject(usage)) return undefined;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
  return {
    inputTokens: n(usage.input),
    outputTokens: n(usage.output),
    cacheReadTokens: n(usage.cacheRead),
    cacheWriteTokens: n(usage.cacheWrite),
  };
}

/** A content string or block list as IR blocks: text and images; anything else kept raw. */
function contentBlocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((part): Block => {
    if (isObject(part) && part.type === "text") {
      return { type: "text", text: typeof part.text === "string" ? part.text : "" };
    }
    if (isObject(part) && part.type === "image") {
      const mediaType = optStr(part.mimeType);
      const data = optStr(part.data);
      return { type: "image", ...(mediaType ? { mediaType } : {}), ...(data ? { data } : {}) };
    }
    return {
      type: "raw",
      harness: HARNESS,
      kind: isObject(part) ? String(part.type ?? "part") : "part",
      value: part,
    };
  });
}

const isResultPart = (b: Block): b is ToolResultPart =>
  b.type === "text" || b.type === "image" || b.type === "raw";

/** An extension's message: context the harness added, never the user's words. */
function contextMessage(base: Base, content: unknown): Message | undefined {
  const blocks = contentBlocks(content);
  return blocks.length ? { ...base, role: "user", kind: "context", blocks } : undefined;
}

function rawMessage(base: Base, kind: string, value: unknown): Message {
  return {
    ...base,
    role: "assistant",
    kind: "turn",
    blocks: [{ type: "raw", harness: HARNESS, kind, value }],
  };
}

/** A `!command` the user ran, as Pi puts it in the model's context (`bashExecutionToText`). */
function bashExecutionText(m: Json): string {
  const output = typeof m.output === "string" ? m.output : "";
  let text = `Ran \`${typeof m.command === "string" ? m.command : ""}\`\n`;
  text += output ? `\`\`\`\n${output}\n\`\`\`` : "(no output)";
  if (m.cancelled === true) text += "\n\n(command cancelled)";
  else if (typeof m.exitCode === "number" && m.exitCode !== 0) {
    text += `\n\nCommand exited with code ${m.exitCode}`;
  }
  if (m.truncated === true && typeof m.fullOutputPath === "string") {
    text += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
  }
  return text;
}
