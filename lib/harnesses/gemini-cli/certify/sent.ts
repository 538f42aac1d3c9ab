/**
 * What Gemini CLI sent the fake Gemini API, as the parts the pair check counts. Only `streamGenerateContent`
 * calls are conversation turns: the model router's complexity classifier, the next-speaker check and the
 * session summary written at the next start-up are `generateContent` side calls with their own prompts.
 */
import {
  functionResponseText,
  type GeminiContent,
  type GeminiPart,
  type GeminiRequest,
} from "../../../certify-kit/fake-servers/gemini.ts";
import { readRequestLog } from "../../../certify-kit/request-log.ts";
import type { SentMessage } from "../../../certify-kit/driver.ts";

interface LoggedRequest {
  path?: unknown;
  body?: GeminiRequest | null;
}

/** The conversation turns in a fake Gemini server's request log, oldest first. */
export function turnRequests(logPath: string): GeminiRequest[] {
  return readRequestLog<LoggedRequest>(logPath).flatMap((r) =>
    typeof r.path === "string" && r.path.endsWith(":streamGenerateContent") && Array.isArray(r.body?.contents)
      ? [r.body]
      : []
  );
}

/**
 * Text the CLI itself puts in a user turn (its `isIgnoredUserContent`): the session context it sends first, and
 * hook output. Harness context, not the person's words.
 */
const HARNESS_CONTEXT = /^\s*<(session_context|hook_context)>/;

/**
 * A request's contents as parts, in order: typed text as user words (the CLI's own context as system), the
 * model's text (thought summaries left out: they are not replayed), its function calls, and the function
 * responses as tool outputs.
 *
 * A function response repeated in the same content with the same call id and the same response is counted once.
 * Gemini CLI does that itself on every resume of a session it recorded: a call's response is stored twice (in
 * the `gemini` message's `toolCalls[].result` and in the `user` message after it) and its history rebuild
 * (`convertSessionToClientHistory`) replays both, which the API merges into one user content. Seen on 0.61.0
 * resuming its own untouched sessions (fixtures/gemini-cli/0.61.0/interrupted.requests.jsonl, and an exec
 * session with `echo`): counted twice, every resume of a Gemini session with a tool call would fail the
 * "sent once" check whatever the handoff wrote. A response repeated in a later turn, or under another id,
 * still counts again.
 */
export function sentMessages(request: GeminiRequest | undefined): SentMessage[] {
  return (request?.contents ?? []).flatMap(contentMessages);
}

function contentMessages(content: GeminiContent): SentMessage[] {
  const role = content.role === "model" ? "assistant" : "user";
  const responded = new Set<string>();
  return (content.parts ?? []).flatMap((part): SentMessage[] => {
    if (part.thought === true) return [];
    if (part.functionCall) {
      const { name, args } = part.functionCall;
      return [{ role: "tool_call", text: JSON.stringify({ name, args: args ?? {} }) }];
    }
    if (part.functionResponse) {
      const key = responseKey(part);
      if (responded.has(key)) return [];
      responded.add(key);
      return [{ role: "tool", text: functionResponseText(part.functionResponse.response) }];
    }
    if (typeof part.text !== "string" || part.text === "") return [];
    return [{ role: role === "user" && HARNESS_CONTEXT.test(part.text) ? "system" : role, text: part.text }];
  });
}

function responseKey(part: GeminiPart): string {
  const { id, name, response } = part.functionResponse!;
  return JSON.stringify([id ?? null, name, response ?? null]);
}
