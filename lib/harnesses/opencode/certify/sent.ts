/**
 * What OpenCode sent the fake Chat Completions server, as the parts the pair check counts. Every request
 * streams, the title OpenCode asks for beside a session's first turn too (its hidden `title` agent, 1.18.33:
 * a system prompt of its own, no tools, the first prompt as user words): that request is no conversation turn.
 */
import {
  type ChatRequest,
  contentText,
  defaultScript,
  fnv1a,
  type Script,
} from "../../../certify-kit/fake-servers/chat-completions.ts";
import { loggedChatRequests } from "../../../certify-kit/chat-requests.ts";

/** How OpenCode's title agent prompt (packages/opencode/src/agent/prompt/title.txt) begins. */
const TITLE_PROMPT = "You are a title generator";

/** Whether a request is OpenCode asking for a session's title. */
export function isTitleRequest(request: ChatRequest): boolean {
  const first = request.messages[0];
  return first?.role === "system" && contentText(first.content ?? null).trimStart().startsWith(TITLE_PROMPT);
}

/** The conversation turns in a fake server's request log, oldest first. */
export function turnRequests(logPath: string): ChatRequest[] {
  return loggedChatRequests(logPath).filter((r) => !isTitleRequest(r));
}

/** The fake model's script: a title for a title request (not a turn's answer), else the kit's default. */
export const opencodeScript: Script = (request, context) =>
  isTitleRequest(request)
    ? { content: `Fake Title ${fnv1a(JSON.stringify(request.messages))}` }
    : defaultScript(request, context);
