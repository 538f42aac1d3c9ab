/**
 * Codex response items (what the model sees) to IR blocks and back. Both directions live here so they stay
 * inverse. Items carry no invented ids on the way out: an id the model API never issued is replayed to it and
 * refused.
 */
import type {
  Block,
  ReasoningBlock,
  ToolCallBlock,
  ToolResultBlock,
  ToolResultPart,
} from "../../ir/schema.ts";
import type {
  CodexResponseItemCustomToolCall,
  CodexResponseItemCustomToolCallOutput,
  CodexResponseItemFunctionCall,
  CodexResponseItemFunctionCallOutput,
  CodexResponseItemMessage,
  CodexResponseItemReasoning,
} from "../../generated/codex/0.169.0.ts";
import { startsWithHandshake } from "../../handshake/handshake.ts";
import { markFailure, unmarkFailure } from "../../ir/tool-failure.ts";
import { isObject, type Json, parseEmbeddedJson, str } from "../../io/json.ts";

type ImageBlock = Extract<Block, { type: "image" }>;

export type MessageContent = CodexResponseItemMessage["content"];
export type OutputContent = Exclude<CodexResponseItemFunctionCallOutput["output"], string>;

/**
 * Text Codex itself injects as user or developer messages: environment, AGENTS.md and skill instructions,
 * interruption and model-switch notices. Matched on the opening tag the way Codex tells them apart.
 */
const CONTEXT_OPENERS = [
  "<environment_context>",
  "<user_instructions>",
  "# AGENTS.md instructions",
  "<INSTRUCTIONS>",
  "<skills_instructions>",
  "<skill>",
  "<permissions instructions>",
  "<plugins_instructions>",
  "<recommended_plugins>",
  "<apps_instructions>",
  "<turn_aborted>",
  "<subagent_notification>",
  "<user_shell_command>",
  "<model_switch>",
  "<collaboration_mode>",
];

/**
 * Whether a user message was written by the harness, not the person: newer Codex records the provenance of
 * every content item (`harness`), older files only have the text to go by.
 */
export function isHarnessContext(message: Json): boolean {
  const meta = isObject(message.internal_chat_message_metadata_passthrough)
    ? message.internal_chat_message_metadata_passthrough
    : {};
  const items = Array.isArray(meta.content_item_metadata) ? meta.content_item_metadata : [];
  const provenance = items.map((
    i,
  ) => (isObject(i) && isObject(i.provenance) ? i.provenance.type : undefined));
  if (provenance.length && provenance.every((p) => p === "harness")) return true;
  const text = messageText(message.content).trimStart();
  return startsWithHandshake(text) || CONTEXT_OPENERS.some((opener) => text.startsWith(opener));
}

/** All text of a message's content, parts joined by newlines. */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter(isObject).map((c) => str(c.text)).filter(Boolean).join("\n");
}

export function blocksFromContent(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((part): Block => {
    if (!isObject(part)) return { type: "raw", harness: "codex", kind: typeof part, value: part };
    if (typeof part.text === "string" && /^(input_text|output_text|text)$/.test(str(part.type))) {
      return { type: "text", text: part.text };
    }
    if (part.type === "input_image") return imageFromUrl(str(part.image_url));
    return { type: "raw", harness: "codex", kind: str(part.type) || "unknown", value: part };
  });
}

function imageFromUrl(url: string): ImageBlock {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return data ? { type: "image", mediaType: data[1]!, data: data[2]! } : { type: "image", url };
}

export function imageUrl(block: { mediaType?: string; data?: string; url?: string }): string {
  return block.data ? `data:${block.mediaType ?? "image/png"};base64,${block.data}` : block.url ?? "";
}

export function reasoningFromItem(item: Json): ReasoningBlock {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const content = Array.isArray(item.content) ? item.content : [];
  const text = [...summary, ...content].filter(isObject).map((s) => str(s.text)).filter(Boolean).join("\n");
  return {
    type: "reasoning",
    text,
    provider: "openai",
    ...(str(item.encrypted_content) ? { encrypted: str(item.encrypted_content) } : {}),
  };
}

/** function_call arguments are a JSON string; a value that does not parse is kept as the string it was. */
export function callFromItem(item: Json): ToolCallBlock {
  const id = str(item.call_id) || str(item.id);
  switch (item.type) {
    case "custom_tool_call":
      // Freeform tools (apply_patch) take raw text, which the IR keeps as a string input.
      return { type: "tool_call", id, name: str(item.name), input: str(item.input) };
    case "local_shell_call":
      return { type: "tool_call", id, name: "local_shell", input: item.action ?? {} };
    default:
      return { type: "tool_call", id, name: str(item.name), input: parseArguments(str(item.arguments)) };
  }
}

function parseArguments(text: string): unknown {
  return parseEmbeddedJson(text);
}

/** Codex records no success flag for a tool output (only its text reaches the model): see ir/tool-failure. */
export function resultFromItem(item: Json): ToolResultBlock {
  const output = item.output;
  const content: ToolResultPart[] = typeof output === "string"
    ? [{ type: "text", text: output }]
    : Array.isArray(output)
    ? blocksFromContent(output).filter((b): b is ToolResultPart =>
      b.type === "text" || b.type === "image" || b.type === "raw"
    )
    : isObject(output)
    ? [{ type: "text", text: str(output.content) || JSON.stringify(output) }]
    : [];
  const { parts, failed } = unmarkFailure(content);
  const flagged = isObject(output) && output.success === false;
  return { type: "tool_result", callId: str(item.call_id), isError: failed || flagged, content: parts };
}

// ---------------------------------------------------------------------------------------------------------------
// IR -> Codex
// ---------------------------------------------------------------------------------------------------------------

export function messageItem(
  role: "user" | "assistant",
  blocks: Block[],
): CodexResponseItemMessage | undefined {
  const type = role === "user" ? "input_text" : "output_text";
  const content: MessageContent = [];
  for (const b of blocks) {
    if (b.type === "text" && b.text) content.push({ type, text: b.text });
    else if (b.type === "image" && role === "user") {
      content.push({ type: "input_image", image_url: imageUrl(b) });
    }
  }
  return content.length ? { type: "message", role, content } : undefined;
}

/** The text blocks' text, joined by newlines (one block's own string when it is the only one). */
export function textOf(blocks: readonly Block[]): string {
  let text: string | undefined;
  let parts: string[] | undefined;
  for (const b of blocks) {
    if (b.type !== "text") continue;
    if (text === undefined) text = b.text;
    else (parts ??= [text]).push(b.text);
  }
  return parts ? parts.join("\n") : text ?? "";
}

/**
 * A freeform tool's input is text (Codex's apply_patch grammar tool) and goes out as a custom tool call; a
 * function tool's input is a value, which Codex keeps as its JSON text.
 */
export function callItem(
  block: ToolCallBlock,
): CodexResponseItemFunctionCall | CodexResponseItemCustomToolCall {
  if (typeof block.input === "string") {
    return { type: "custom_tool_call", name: block.name, input: block.input, call_id: block.id };
  }
  return {
    type: "function_call",
    name: block.name,
    arguments: JSON.stringify(block.input ?? {}),
    call_id: block.id,
  };
}

/**
 * The output item that answers a call of the given kind (the API pairs custom calls with custom outputs).
 * Text-only results stay a string, as Codex writes them; images need the content-item form.
 */
export function outputItem(
  block: ToolResultBlock,
  custom: boolean,
): CodexResponseItemFunctionCallOutput | CodexResponseItemCustomToolCallOutput {
  const type = custom ? "custom_tool_call_output" : "function_call_output";
  const parts = markFailure(block.content, block.isError);
  if (!parts.some(isImage)) {
    const output = parts.length === 1 ? partText(parts[0]!) : parts.map(partText).join("\n");
    return { type, call_id: block.callId, output };
  }
  const output: OutputContent = parts.map((p) =>
    p.type === "image"
      ? { type: "input_image", image_url: imageUrl(p) }
      : { type: "input_text", text: partText(p) }
  );
  return { type, call_id: block.callId, output };
}

const isImage = (p: ToolResultPart) => p.type === "image";
const partText = (
  p: ToolResultPart,
) => (p.type === "text" ? p.text : JSON.stringify(p.type === "raw" ? p.value : p));

/** Only OpenAI reasoning goes back as a reasoning item; its encrypted payload is what the provider reads. */
export function reasoningItem(block: ReasoningBlock): CodexResponseItemReasoning {
  return {
    type: "reasoning",
    summary: block.text ? [{ type: "summary_text", text: block.text }] : [],
    ...(block.encrypted ? { encrypted_content: block.encrypted } : {}),
  };
}
