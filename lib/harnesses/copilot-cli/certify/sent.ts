/**
 * What Copilot CLI sent the fake Chat Completions server, and the fake model's script for it. Copilot puts a
 * `<current_datetime>` block before every typed prompt in the request (1.0.102; the event keeps the words
 * alone in `content`, the block in `transformedContent`), so the kit's script, which keys on how the last user
 * message begins (`TOOL: <command>`), is handed the prompt without it. Every request of a seeding is a
 * conversation turn: no title or side request was seen.
 */
import {
  type ChatMessage,
  type ChatRequest,
  defaultScript,
  type Script,
} from "../../../certify-kit/fake-servers/chat-completions.ts";
import { loggedChatRequests } from "../../../certify-kit/chat-requests.ts";

const DATETIME_BLOCK = /^<current_datetime>[^<]*<\/current_datetime>\s*/;

/** A user message as the person typed it: the datetime block Copilot puts first taken off. */
function typedWords(message: ChatMessage): ChatMessage {
  return message.role === "user" && typeof message.content === "string"
    ? { ...message, content: message.content.replace(DATETIME_BLOCK, "") }
    : message;
}

/**
 * The kit's script on the typed words. Copilot's bash tool requires a `description` beside the command (its
 * parameters' `required`), which the kit's call lacks: it is added to a bash call.
 */
export const copilotScript: Script = (request, context) => {
  const reply = defaultScript({ ...request, messages: request.messages.map(typedWords) }, context);
  return {
    ...reply,
    ...(reply.toolCalls
      ? {
        toolCalls: reply.toolCalls.map((call) =>
          call.name === "bash" && typeof call.arguments === "object"
            ? { ...call, arguments: { ...call.arguments, description: "Run the command the user asked for" } }
            : call
        ),
      }
      : {}),
  };
};

/** The conversation turns in a fake server's request log, oldest first. */
export function turnRequests(logPath: string): ChatRequest[] {
  return loggedChatRequests(logPath);
}
