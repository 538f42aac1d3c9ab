/**
 * What a harness sent the fake Chat Completions server, read back from its request log: the requests in the
 * order they came, and a request's messages as the parts certify's pair check counts. Each driver of a harness
 * that speaks this API says which of its requests are conversation turns (Hermes streams only those; OpenCode
 * streams its title request too).
 */
import { type ChatMessage, type ChatRequest, contentText } from "./fake-servers/chat-completions.ts";
import { readRequestLog } from "./request-log.ts";
import type { SentMessage } from "./driver.ts";

interface LoggedRequest {
  path?: unknown;
  body?: ChatRequest | null;
}

/** The Chat Completions requests in a fake server's log, oldest first (probes of other paths left out). */
export function loggedChatRequests(logPath: string): ChatRequest[] {
  return readRequestLog<LoggedRequest>(logPath).flatMap((r) =>
    typeof r.path === "string" && r.path.endsWith("/chat/completions") && Array.isArray(r.body?.messages)
      ? [r.body]
      : []
  );
}

/**
 * OpenAI-style messages as parts: text by role, each of an assistant's `tool_calls` as a tool call. A
 * `developer` message is the system prompt under OpenAI's newer name (Pi sends its own so).
 */
export function sentChatMessages(messages: readonly ChatMessage[]): SentMessage[] {
  return messages.flatMap((m): SentMessage[] => {
    const role: SentMessage["role"] = m.role === "assistant" || m.role === "tool" || m.role === "system"
      ? m.role
      : m.role === "developer"
      ? "system"
      : "user";
    const text = contentText(m.content ?? null);
    const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
    return [
      ...(text.trim() ? [{ role, text }] : []),
      ...calls.map((call): SentMessage => ({ role: "tool_call", text: JSON.stringify(call) })),
    ];
  });
}
