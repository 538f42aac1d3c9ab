/**
 * A foreign session's live thread as Hermes message rows, the way Hermes itself would have stored the
 * conversation: one assistant row per response (text, reasoning text and OpenAI-style `tool_calls` with
 * string arguments), one `tool` row per result right after it (with `tool_name`), user rows for the user's
 * words. Harness-injected context and an earlier hop's handshake are not replayed. Reasoning proofs never go
 * into `reasoning_details`: Hermes may run any provider, so only the reasoning text travels (reported).
 */
import type { Block, Message } from "../../ir/schema.ts";
import type { RecordClock } from "../../ir/clock.ts";
import { isHandshake } from "../../handshake/handshake.ts";
import { markFailure } from "../../ir/tool-failure.ts";
import { contentFromBlocks } from "./content.ts";
import { blankMessage, type ExportedMessage, rowTime } from "./rows.ts";

export interface RowStamp {
  sessionId: string;
  clock: RecordClock;
}

interface AssistantDraft {
  timestamp: number;
  visible: Block[];
  reasoning: string[];
  calls: Extract<Block, { type: "tool_call" }>[];
}

/** The rows, made as the thread is read (one pass): an assistant row goes out once its response has ended. */
export async function* foreignMessages(
  messages: Iterable<Message> | AsyncIterable<Message>,
  stamp: RowStamp,
): AsyncGenerator<ExportedMessage> {
  const toolNames = new Map<string, string>();
  let draft: AssistantDraft | undefined;
  for await (const m of messages) {
    if (m.kind === "context" || isHandshake(m)) continue;
    if (m.role === "assistant") {
      draft ??= { timestamp: rowTime(stamp.clock, m.timestamp), visible: [], reasoning: [], calls: [] };
      addToDraft(draft, m, toolNames);
      continue;
    }
    if (draft) yield assistantRow(draft, stamp.sessionId);
    draft = undefined;
    yield* userSideRows(m, stamp, toolNames);
  }
  if (draft) yield assistantRow(draft, stamp.sessionId);
}

function addToDraft(draft: AssistantDraft, m: Message, toolNames: Map<string, string>): void {
  for (const b of m.blocks) {
    if (b.type === "reasoning" && b.text.trim()) draft.reasoning.push(b.text);
    else if (b.type === "tool_call") {
      draft.calls.push(b);
      toolNames.set(b.id, b.name);
    } else if (b.type === "text" || b.type === "image") draft.visible.push(b);
  }
}

function assistantRow(draft: AssistantDraft, sessionId: string): ExportedMessage {
  const reasoning = draft.reasoning.join("\n\n") || null;
  return blankMessage({
    session_id: sessionId,
    role: "assistant",
    timestamp: draft.timestamp,
    content: contentFromBlocks(draft.visible),
    tool_calls: draft.calls.length
      ? draft.calls.map((c) => ({
        id: c.id,
        type: "function",
        function: {
          name: c.name,
          arguments: typeof c.input === "string" ? c.input : JSON.stringify(c.input ?? {}),
        },
      }))
      : null,
    finish_reason: draft.calls.length ? "tool_calls" : "stop",
    reasoning,
    reasoning_content: reasoning,
  });
}

/** Tool results first (they answer the preceding assistant row), then the message's own words. */
function userSideRows(m: Message, stamp: RowStamp, toolNames: Map<string, string>): ExportedMessage[] {
  const rows: ExportedMessage[] = [];
  for (const b of m.blocks) {
    if (b.type !== "tool_result") continue;
    rows.push(blankMessage({
      session_id: stamp.sessionId,
      role: "tool",
      timestamp: rowTime(stamp.clock, m.timestamp),
      content: contentFromBlocks(markFailure(b.content, b.isError)),
      tool_call_id: b.callId,
      tool_name: toolNames.get(b.callId) ?? null,
    }));
  }
  const words = m.blocks.filter((b) => (b.type === "text" && b.text.trim()) || b.type === "image");
  if (words.length) {
    rows.push(blankMessage({
      session_id: stamp.sessionId,
      role: "user",
      timestamp: rowTime(stamp.clock, m.timestamp),
      content: contentFromBlocks(words),
    }));
  }
  return rows;
}
