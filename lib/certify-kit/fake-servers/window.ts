/**
 * A context window the fake model servers enforce, opt-in (a server given none takes any request, as before):
 * a request larger than the window is refused the way the real API refuses it, status and body, so a harness
 * resumed against a fake meets the error its own overflow handling was written for (issue 33). How each harness
 * tells the error apart: Codex by the error's `code` `context_length_exceeded` (codex-rs
 * classify_provider_error), Claude Code by Anthropic's message `prompt is too long: N tokens > M maximum`,
 * Gemini CLI by the INVALID_ARGUMENT message naming the input token count.
 *
 * A request's tokens are its body's characters over FAKE_CHARS_PER_TOKEN: the fake has no tokenizer, and a
 * body's JSON syntax makes it count more than a real one would, never less.
 */
import type { ServerResponse } from "node:http";

export const FAKE_CHARS_PER_TOKEN = 4;

export interface FakeWindow {
  /** The most tokens a request may hold. */
  tokens: number;
  /** The token counts of the requests refused so far (a test reads it: empty when all fitted). */
  refused: number[];
}

/** The wire format whose refusal to send (`generative-language`: Google's Gemini API). */
export type WindowApi = "anthropic" | "responses" | "chat-completions" | "generative-language";

export interface Refusal {
  status: number;
  body: string;
}

export const requestTokens = (body: string): number => Math.ceil(body.length / FAKE_CHARS_PER_TOKEN);

/** The refusal a request of `body` gets from `api` when it is over `window` (recorded there), else none. */
export function overWindow(
  api: WindowApi,
  body: string,
  window: FakeWindow | undefined,
): Refusal | undefined {
  if (!window) return undefined;
  const tokens = requestTokens(body);
  if (tokens <= window.tokens) return undefined;
  window.refused.push(tokens);
  const max = window.tokens;
  return { status: 400, body: JSON.stringify(REFUSALS[api](tokens, max)) };
}

/** Each API's answer to a prompt over its model's window, as the real API sends it. */
const REFUSALS: Readonly<Record<WindowApi, (tokens: number, max: number) => unknown>> = {
  anthropic: (tokens, max) => ({
    type: "error",
    error: {
      type: "invalid_request_error",
      message: `prompt is too long: ${tokens} tokens > ${max} maximum`,
    },
  }),
  responses: () => ({
    error: {
      message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
      type: "invalid_request_error",
      param: "input",
      code: "context_length_exceeded",
    },
  }),
  "chat-completions": (tokens, max) => ({
    error: {
      message: `This model's maximum context length is ${max} tokens. However, your messages resulted in ` +
        `${tokens} tokens. Please reduce the length of the messages.`,
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    },
  }),
  "generative-language": (tokens, max) => ({
    error: {
      code: 400,
      message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${max}).`,
      status: "INVALID_ARGUMENT",
    },
  }),
};

/** Sends `refusal` (a server's answer when overWindow gave one). */
export function sendRefusal(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, { "content-type": "application/json" });
  res.end(refusal.body);
}
