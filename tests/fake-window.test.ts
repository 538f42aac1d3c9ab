/**
 * Issue 33: the fake model servers enforce a context window when given one, refusing a longer request with the
 * status and body the real API sends (Anthropic Messages, OpenAI Responses and Chat Completions, Gemini), and
 * take a request within it as before. Real HTTP requests on loopback.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeAnthropic } from "../lib/certify-kit/fake-servers/anthropic.ts";
import { startFakeResponses } from "../lib/certify-kit/fake-servers/responses.ts";
import { startFakeChatCompletions } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { startFakeGemini } from "../lib/certify-kit/fake-servers/gemini.ts";
import type { FakeWindow } from "../lib/certify-kit/fake-servers/window.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir("sb-fake-window-");
/** 1,000 tokens at the fakes' 4 characters a token. */
const window = (): FakeWindow => ({ tokens: 1_000, refused: [] });
const LONG = "x".repeat(8_000);

interface Server {
  url: string;
  close(): Promise<void>;
}

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const text = JSON.stringify(body);
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: text });
  const answer = await r.text();
  return {
    status: r.status,
    json: r.headers.get("content-type")?.includes("json") ? JSON.parse(answer) : answer,
  };
}

async function refuses(
  start: (w: FakeWindow) => Promise<Server>,
  path: string,
  body: (text: string) => unknown,
  expected: (tokens: number) => unknown,
): Promise<void> {
  const w = window();
  const server = await start(w);
  try {
    const short = await post(`${server.url}${path}`, body("hello"));
    assert.equal(short.status, 200, JSON.stringify(short.json));
    const long = await post(`${server.url}${path}`, body(LONG));
    assert.equal(long.status, 400);
    const tokens = Math.ceil(JSON.stringify(body(LONG)).length / 4);
    assert.deepEqual(w.refused, [tokens]);
    assert.deepEqual(long.json, expected(tokens));
  } finally {
    await server.close();
  }
}

test("the fake Anthropic API refuses a prompt over its window: 400 invalid_request_error, prompt is too long", async () => {
  await refuses(
    (w) => startFakeAnthropic({ logPath: join(dir, "anthropic.jsonl"), window: w }),
    "/v1/messages",
    (text) => ({ model: "claude-sonnet-4-6", max_tokens: 10, messages: [{ role: "user", content: text }] }),
    (tokens) => ({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: `prompt is too long: ${tokens} tokens > 1000 maximum`,
      },
    }),
  );
});

test("the fake Responses API refuses an input over its window: 400 context_length_exceeded", async () => {
  await refuses(
    (w) => startFakeResponses({ logPath: join(dir, "responses.jsonl"), window: w }),
    "/responses",
    (text) => ({ model: "gpt-5.5", input: [{ role: "user", content: [{ type: "input_text", text }] }] }),
    () => ({
      error: {
        message:
          "Your input exceeds the context window of this model. Please adjust your input and try again.",
        type: "invalid_request_error",
        param: "input",
        code: "context_length_exceeded",
      },
    }),
  );
});

test("the fake Chat Completions API refuses messages over its window: 400 context_length_exceeded", async () => {
  await refuses(
    (w) => startFakeChatCompletions({ logPath: join(dir, "chat.jsonl"), window: w }),
    "/v1/chat/completions",
    (text) => ({ model: "m", messages: [{ role: "user", content: text }] }),
    (tokens) => ({
      error: {
        message:
          `This model's maximum context length is 1000 tokens. However, your messages resulted in ${tokens} ` +
          "tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    }),
  );
});

test("the fake Gemini API refuses contents over its window: 400 INVALID_ARGUMENT, the input token count", async () => {
  await refuses(
    (w) => startFakeGemini({ logPath: join(dir, "gemini.jsonl"), window: w }),
    "/v1beta/models/gemini-2.5-pro:generateContent",
    (text) => ({ contents: [{ role: "user", parts: [{ text }] }] }),
    (tokens) => ({
      error: {
        code: 400,
        message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (1000).`,
        status: "INVALID_ARGUMENT",
      },
    }),
  );
});
