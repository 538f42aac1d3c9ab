/**
 * Message content as Hermes holds it: a string, or an OpenAI-style list of parts (text, image_url) that
 * `state.db` stores as JSON behind a `"\x00json:"` prefix (`SessionDB._encode_content`). Both directions live
 * here so they stay inverse.
 */
import type { Block, ToolResultPart } from "../../ir/schema.ts";
import { pyJson } from "./pyjson.ts";
import { isObject, parseEmbeddedJson } from "../../io/json.ts";

const CONTENT_JSON_PREFIX = "\u0000json:";

export type ContentPart = Record<string, unknown>;

/**
 * SQL that is true when `column` holds stored parts: its first byte is the prefix's NUL. Only that byte is read,
 * not searched for through the whole value (a search reads every byte of every plain row).
 */
export const storesParts = (column: string): string => `substr(CAST(${column} AS BLOB), 1, 1) = x'00'`;

/** Stored column text to content (`SessionDB._decode_content`): undecodable JSON stays the raw string. */
export function decodeContent(stored: unknown): unknown {
  if (typeof stored !== "string" || !stored.startsWith(CONTENT_JSON_PREFIX)) return stored;
  const text = stored.slice(CONTENT_JSON_PREFIX.length);
  const value = parseEmbeddedJson(text);
  return value === text ? stored : value;
}

export function encodeContent(content: string | ContentPart[] | null): string | null {
  return Array.isArray(content) ? CONTENT_JSON_PREFIX + pyJson(content, { ensureAscii: true }) : content;
}

/** Content to IR blocks; parts we have no typed home for are kept whole as raw blocks. */
export function blocksFromContent(content: unknown): (ToolResultPart & Block)[] {
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) return [];
  return content.map((part): ToolResultPart & Block => {
    if (isObject(part) && part.type === "text" && typeof part.text === "string") {
      return { type: "text", text: part.text };
    }
    const url = isObject(part) && isObject(part.image_url) ? part.image_url.url : undefined;
    if (isObject(part) && part.type === "image_url" && typeof url === "string") return imageFromUrl(url);
    return {
      type: "raw",
      harness: "hermes",
      kind: isObject(part) ? String(part.type) : typeof part,
      value: part,
    };
  });
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function imageFromUrl(url: string): ToolResultPart & Block {
  const inline = DATA_URL.exec(url);
  return inline ? { type: "image", mediaType: inline[1]!, data: inline[2]! } : { type: "image", url };
}

/** Text and image blocks to content: a plain string when there is only text, else a list of parts. */
export function contentFromBlocks(blocks: Block[]): string | ContentPart[] {
  const kept = blocks.filter((b) => b.type === "text" || b.type === "image");
  if (kept.every((b) => b.type === "text")) return kept.map((b) => (b as { text: string }).text).join("\n\n");
  return kept.map((b): ContentPart => {
    if (b.type === "text") return { type: "text", text: b.text };
    const image = b as Extract<Block, { type: "image" }>;
    const url = image.data ? `data:${image.mediaType ?? "image/png"};base64,${image.data}` : image.url ?? "";
    return { type: "image_url", image_url: { url } };
  });
}
