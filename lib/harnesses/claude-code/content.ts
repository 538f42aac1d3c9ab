/**
 * Anthropic Messages content blocks to IR blocks and back. Both directions live here so they stay inverse.
 */
import type { Block, ReasoningBlock, ToolResultPart } from "../../ir/schema.ts";
import type {
  ClaudeAssistantContentBlock,
  ClaudeUserContentBlock,
  ClaudeUserImageBlock,
  ClaudeUserToolResultBlock,
} from "../../generated/claude-code/2.1.328.ts";
import { isObject, type Json, str } from "../../io/json.ts";

/** A content block as the Claude Code transcript (and the Messages API) holds it. */
export type AnthropicBlock = ClaudeUserContentBlock | ClaudeAssistantContentBlock;

export function blocksFromContent(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.map(blockFromAnthropic);
}

function blockFromAnthropic(block: unknown): Block {
  if (!isObject(block)) return { type: "raw", harness: "claude-code", kind: typeof block, value: block };
  switch (block.type) {
    case "text":
      return { type: "text", text: str(block.text) };
    case "thinking": {
      // The signature set only when there is one, not spread from a conditional object: this runs for every
      // thinking block of a transcript.
      const reasoning: ReasoningBlock = {
        type: "reasoning",
        text: str(block.thinking),
        provider: "anthropic",
      };
      if (typeof block.signature === "string" && block.signature) reasoning.signature = block.signature;
      return reasoning;
    }
    case "redacted_thinking":
      return { type: "reasoning", text: "", provider: "anthropic", encrypted: str(block.data) };
    case "tool_use":
      return { type: "tool_call", id: str(block.id), name: str(block.name), input: block.input ?? {} };
    case "tool_result":
      return {
        type: "tool_result",
        callId: str(block.tool_use_id),
        isError: block.is_error === true,
        content: toolResultParts(block.content),
      };
    case "image":
      return imageFromAnthropic(block);
    default:
      return { type: "raw", harness: "claude-code", kind: str(block.type) || "unknown", value: block };
  }
}

function toolResultParts(content: unknown): ToolResultPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.map(partFromAnthropic);
}

function partFromAnthropic(part: unknown): ToolResultPart {
  if (isObject(part) && part.type === "text") return { type: "text", text: str(part.text) };
  if (isObject(part) && part.type === "image") return imageFromAnthropic(part);
  return {
    type: "raw",
    harness: "claude-code",
    kind: isObject(part) ? str(part.type) : typeof part,
    value: part,
  };
}

function imageFromAnthropic(block: Json): ToolResultPart & Block {
  const source = isObject(block.source) ? block.source : {};
  if (source.type === "url") return { type: "image", url: str(source.url) };
  return { type: "image", mediaType: str(source.media_type), data: str(source.data) };
}

function imageToAnthropic(block: { mediaType?: string; data?: string; url?: string }): ClaudeUserImageBlock {
  if (block.url && !block.data) return { type: "image", source: { type: "url", url: block.url } };
  return {
    type: "image",
    source: { type: "base64", media_type: block.mediaType ?? "image/png", data: block.data ?? "" },
  };
}

/**
 * IR blocks to Anthropic content. Reasoning is only rendered as a thinking block when it carries an Anthropic
 * signature: a missing or foreign signature makes the API refuse every later turn, so such reasoning has been
 * turned into text upstream (and reported). Raw blocks from other harnesses never reach here.
 */
export function blockToAnthropic(block: Block): AnthropicBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "reasoning":
      return block.signature
        ? { type: "thinking", thinking: block.text, signature: block.signature }
        : { type: "redacted_thinking", data: block.encrypted ?? "" };
    case "tool_call":
      return {
        type: "tool_use",
        id: block.id,
        name: block.name,
        input: isObject(block.input) ? block.input : {},
      };
    case "tool_result":
      return toolResultToAnthropic(block);
    case "image":
      return imageToAnthropic(block);
    case "raw":
      return isObject(block.value) && typeof block.value.type === "string"
        ? (block.value as AnthropicBlock)
        : { type: "text", text: JSON.stringify(block.value) };
  }
}

function toolResultToAnthropic(block: Extract<Block, { type: "tool_result" }>): ClaudeUserToolResultBlock {
  const content = block.content.map((part): { type: string; [k: string]: unknown } => {
    if (part.type === "text") return { type: "text", text: part.text };
    if (part.type === "image") return imageToAnthropic(part);
    return isObject(part.value) && typeof part.value.type === "string"
      ? (part.value as { type: string })
      : { type: "text", text: JSON.stringify(part.value) };
  });
  // As Claude Code 2.x records a result (tests/claude-golden.test.ts): one text part as a plain string, and
  // is_error always stated.
  const only = content.length === 1 && content[0]!.type === "text" ? content[0]!.text : undefined;
  return {
    tool_use_id: block.callId,
    type: "tool_result",
    content: typeof only === "string" ? only : content,
    is_error: block.isError,
  };
}
