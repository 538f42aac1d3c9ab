/**
 * Translates every tool call of a session into the target harness's vocabulary, through the canonical kinds.
 * The call as its first harness wrote it rides along as `native`, so a later hop back to that harness restores
 * it exactly instead of translating twice. Calls with no equivalent pass through under their own name.
 */
import type { Block, Message } from "../ir/schema.ts";
import { isObject, type ToolVocabulary } from "./canonical.ts";

/** A harness as translation sees it: its name and its vocabulary (the descriptor's `tools`). */
export interface ToolSide {
  name: string;
  tools: ToolVocabulary;
}

export interface TranslationStats {
  translated: number;
  restored: number;
  /** Names of calls that kept their foreign name because the target has no equivalent. */
  passedThrough: string[];
}

/**
 * One message's tool calls in the target's vocabulary, counted into `stats`. `from` is the harness that wrote
 * the session (its `meta.harness`), `to` the one it goes to.
 */
export function toolTranslator(
  from: ToolSide,
  to: ToolSide,
): (m: Message, stats: TranslationStats) => Message {
  const source = from.name;
  const target = to.name;
  if (source === target) return (m) => m;
  const translateBlock = (block: Block, stats: TranslationStats): Block => {
    if (block.type !== "tool_call") return block;
    if (block.native?.harness === target) {
      stats.restored++;
      return { type: "tool_call", id: block.id, name: block.native.name, input: block.native.input };
    }
    const canonical = from.tools.toCanonical(block);
    const mapped = canonical && to.tools.fromCanonical(canonical);
    if (!mapped) {
      stats.passedThrough.push(block.name);
      // Still the first harness's call: a later target may own a tool of that very name (Copilot CLI's and
      // OpenCode's `task`), and must not read it as its own on the way back.
      const native = block.native ?? { harness: source, name: block.name, input: block.input };
      if (to.tools.textInput || isObject(block.input)) return { ...block, native };
      // Codex's own key for a freeform call's text; the hop back restores the call as it was.
      return { ...block, input: { input: block.input }, native };
    }
    stats.translated++;
    return {
      ...block,
      name: mapped.name,
      input: mapped.input,
      native: block.native ?? { harness: source, name: block.name, input: block.input },
    };
  };
  return (m, stats) =>
    m.blocks.some((b) => b.type === "tool_call")
      ? { ...m, blocks: m.blocks.map((b) => translateBlock(b, stats)) }
      : m;
}

export const noTranslation = (): TranslationStats => ({ translated: 0, restored: 0, passedThrough: [] });
