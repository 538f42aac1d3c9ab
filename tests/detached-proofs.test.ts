/**
 * Detached reasoning proofs are kept serialized, in strings of about a megabyte (lib/ir/reasoning.ts
 * DetachedProofs), until provenance saves them: what they give back must be every proof added, in order,
 * exactly as JSON would write the list, whatever the chunks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DetachedProofs } from "../lib/ir/reasoning.ts";
import type { ReasoningBlock } from "../lib/ir/schema.ts";

test("detached proofs give back every proof added, in order, as the JSON list they are saved as", () => {
  const proofs = new DetachedProofs();
  assert.equal(proofs.json(), "[]");
  const added: { text: string; block: ReasoningBlock }[] = [];
  // Past several chunks, with text that JSON escapes and text of more than one byte a character.
  for (let i = 0; i < 9_000; i++) {
    const text = `thought ${i} "quoted"\n${"é".repeat(i % 7)}${"x".repeat(i % 300)}`;
    const block: ReasoningBlock = {
      type: "reasoning",
      text,
      provider: "anthropic",
      signature: `sig-${i}-${"s".repeat(200)}`,
    };
    proofs.add(text, block);
    added.push({ text, block });
  }
  assert.equal(proofs.count, added.length);
  assert.deepEqual(JSON.parse(proofs.json()), added);
  // Asked again, and after more are added, still the whole list.
  assert.deepEqual(JSON.parse(proofs.json()), added);
  const last = {
    text: "one more",
    block: { type: "reasoning", text: "one more", provider: "openai" } as const,
  };
  proofs.add(last.text, last.block);
  assert.deepEqual(JSON.parse(proofs.json()), [...added, last]);
});
