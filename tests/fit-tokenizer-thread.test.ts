/**
 * Issue 34, the tokenizer on a second thread (lib/fit/tokenizer-thread.ts): loaded while a long session is read,
 * it counts exactly as gpt-tokenizer called in this thread, hostile text included; one that cannot load stops,
 * and the fit counts in its own thread. Whether a conversion starts it is decided before the read, from the
 * target, the flags and the file's size (lib/fit/preload.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { TokenizerThread } from "../lib/fit/tokenizer-thread.ts";
import { preloadForFit } from "../lib/fit/preload.ts";
import { BUILTIN_HARNESSES } from "../lib/harnesses/registry.ts";
import { tempDir } from "./helpers/tmp.ts";

const asText = { disallowedSpecial: new Set<string>() };

test("the tokenizer thread counts every text as o200k_base does in this thread", async () => {
  const thread = new TokenizerThread();
  try {
    assert.equal(await thread.loaded(), true);
    const texts = [
      "",
      "hello world",
      "README prose: the quick brown fox refactors the parser module and re-runs the suite. ".repeat(50),
      "<|endoftext|> is counted as the characters it is",
      "日本語のテキストと emoji 🎉 mixed",
    ];
    for (const text of texts) assert.equal(thread.count(text), countTokens(text, asText), text.slice(0, 30));
    // A run with no break is counted in chunks (quadratic merging otherwise): at most a token a chunk more.
    const run = "x".repeat(20_000);
    const counted = thread.count(run);
    assert.ok(counted >= countTokens("x".repeat(512), asText) * 39 && counted <= 20_000, `${counted}`);
  } finally {
    await thread.stop();
  }
});

test("a tokenizer thread that cannot load says so and stops", async () => {
  const dir = tempDir("sb-tokenizer-thread-");
  const broken = join(dir, "broken-worker.mjs");
  writeFileSync(broken, 'throw new Error("no tables here");\n');
  const thread = new TokenizerThread(new URL(`file://${broken}`));
  assert.equal(await thread.loaded(), false);
});

test("a conversion starts the tokenizer before the read only when the fit will need it: a long file into a GPT model's window", async () => {
  const dir = tempDir("sb-preload-");
  const small = join(dir, "small.jsonl");
  const large = join(dir, "large.jsonl");
  writeFileSync(small, "x".repeat(100_000));
  // Four bytes a budget token: Codex's window of 272,000 leaves a budget of 204,000.
  writeFileSync(large, "x".repeat(4 * 204_000));
  const { "claude-code": claude, codex, pi } = BUILTIN_HARNESSES;
  const none = [
    [preloadForFit(claude, codex, small, {}), "a short session fits without a tokenizer"],
    [preloadForFit(claude, codex, large, { fit: "off" }), "not fitted"],
    [preloadForFit(codex, codex, large, {}), "a copy within one harness is never fitted"],
    [preloadForFit(claude, pi, large, {}), "Pi's default model is no GPT model"],
    [preloadForFit(claude, codex, large, { context: 1_000_000 }), "a larger window"],
    [preloadForFit(claude, codex, join(dir, "gone.jsonl"), {}), "no file, no guess"],
  ] as const;
  for (const [thread, why] of none) assert.equal(thread, undefined, why);
  for (const [from, to, guess] of [[claude, pi, { model: "gpt-5.5" }], [claude, codex, {}]] as const) {
    const thread = preloadForFit(from, to, large, guess);
    assert.ok(thread, `${from.name} -> ${to.name}`);
    assert.equal(await thread.loaded(), true);
    await thread.stop();
  }
});
