/**
 * Issue 33, counting with a real tokenizer where npm has one for the target's family (lib/fit/tokenizer.ts):
 * OpenAI's models are counted by o200k_base, checked here against gpt-tokenizer called directly, on text whose
 * characters per token are far from the estimate's (base64: about 1.5 where the estimate assumes 3.9).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { Message, Session } from "../lib/ir/schema.ts";
import { BUILTIN_HARNESSES } from "../lib/harnesses/registry.ts";
import { fitSession } from "../lib/fit/fit.ts";
import { exactCounter, hasTokenizer } from "../lib/fit/tokenizer.ts";
import type { TokenFamily } from "../lib/fit/tokens.ts";

const asText = { disallowedSpecial: new Set<string>() };
const base = BUILTIN_HARNESSES["claude-code"].store.read("fixtures/claude-code/2.1.328/interactive.jsonl");

const message = (n: number, role: "user" | "assistant", text: string): Message => ({
  uid: `m${n}`,
  parentUid: n === 0 ? null : `m${n - 1}`,
  role,
  kind: "turn",
  blocks: [{ type: "text", text }],
});

/** A session of `turns` prompts and replies, each reply `reply` characters of base64. */
async function base64Session(turns: number, reply: number): Promise<Session> {
  const messages = [...Array(turns).keys()].flatMap((t) => [
    message(2 * t, "user", `prompt ${t}`),
    message(2 * t + 1, "assistant", randomBytes(reply).toString("base64").slice(0, reply)),
  ]);
  return { ...(await base), messages, threads: [] };
}

const codex = BUILTIN_HARNESSES.codex.conversation.models;

test("a GPT model's session the character estimate would send whole is fitted by OpenAI's own token count", async () => {
  const session = await base64Session(20, 1_500);
  const text = (session.messages as Message[]).map((m) => (m.blocks[0] as { text: string }).text);
  const tokens = text.reduce((sum, t) => sum + countTokens(t, asText), 0);
  const characters = text.reduce((sum, t) => sum + t.length, 0);
  // A budget the estimate (3.9 characters a token) would take the session within, the real count not.
  const budget = Math.round(characters / 3.2);
  assert.ok(tokens > budget, `${tokens} tokens are over ${budget}`);
  const fitted = await fitSession(session, { mode: budget, models: codex, model: "gpt-5.5" });
  assert.equal(fitted!.plan.exact, true);
  assert.ok(fitted!.plan.total >= tokens, `${fitted!.plan.total} counted, ${tokens} by gpt-tokenizer`);
  assert.ok(fitted!.plan.fitted, "the session is fitted");
  const sent = (fitted!.session.messages as Message[]).reduce(
    (sum, m) => sum + m.blocks.reduce((s, b) => s + (b.type === "text" ? countTokens(b.text, asText) : 0), 0),
    0,
  );
  assert.ok(sent <= budget, `${sent} tokens sent within ${budget}`);
});

test("a session of fewer characters than the budget fits without a tokenizer, and is returned as read", async () => {
  const session = await base64Session(4, 200);
  const fitted = await fitSession(session, { mode: 10_000, models: codex, model: "gpt-5.5" });
  assert.equal(fitted!.session, session);
  assert.equal(fitted!.plan.exact, false);
});

test("OpenAI's count of prose cut into chunks is its count of the whole text", async () => {
  const counter = (await exactCounter("openai"))!;
  // Prose: the README's lines of words (not its tables, code or sample runs of one letter, which cut inside).
  const prose = readFileSync("README.md", "utf8").split("\n").filter((line) =>
    /^[A-Za-z(]/.test(line) && !/\S{40}/.test(line)
  )
    .join("\n");
  assert.ok(prose.length > 20_000, `${prose.length} characters of prose`);
  assert.equal(counter.text(prose), countTokens(prose, asText));
});

test("a special token's spelling in a session is counted as the text it is, never an error", async () => {
  const counter = (await exactCounter("openai"))!;
  const text = "before <|endoftext|> after <|im_start|>";
  assert.equal(counter.text(text), countTokens(text, asText));
  assert.ok(counter.text(text) > 4);
});

test("a run with no break is counted in chunks, within a token of each chunk of the whole run's count", async () => {
  const counter = (await exactCounter("openai"))!;
  const run = randomBytes(6_000).toString("hex");
  const whole = countTokens(run, asText);
  const chunked = counter.text(run);
  assert.ok(Math.abs(chunked - whole) <= Math.ceil(run.length / 256), `${chunked} against ${whole}`);
});

test("Claude's and Gemini's models have no tokenizer on npm: their counts stay estimated", async () => {
  assert.equal(await exactCounter("anthropic"), undefined);
  assert.equal(await exactCounter("google"), undefined);
  assert.equal(await exactCounter("other"), undefined);
  // What a fit asks before it makes room for the tables says the same.
  const families: TokenFamily[] = ["openai", "anthropic", "google", "other"];
  assert.deepEqual(families.map(hasTokenizer), [true, false, false, false]);
  assert.ok(await exactCounter("openai"));
});
