/**
 * Detached reasoning proofs are kept serialized, in strings of about a megabyte (lib/ir/reasoning.ts
 * DetachedProofs), until provenance saves them: what they give back must be every proof added, in order,
 * exactly as JSON would write the list, whatever the chunks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DetachedProofs } from "../lib/ir/reasoning.ts";
import type { ReasoningBlock } from "../lib/ir/schema.ts";

const joined = (proofs: DetachedProofs) => [...proofs.json()].join("");

test("detached proofs give back every proof added, in order, as the JSON list they are saved as", () => {
  const proofs = new DetachedProofs();
  assert.equal(joined(proofs), "[]");
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
  assert.deepEqual(JSON.parse(joined(proofs)), added);
  // Asked again, and after more are added, still the whole list.
  assert.deepEqual(JSON.parse(joined(proofs)), added);
  const last = {
    text: "one more",
    block: { type: "reasoning", text: "one more", provider: "openai" } as const,
  };
  proofs.add(last.text, last.block);
  assert.deepEqual(JSON.parse(joined(proofs)), [...added, last]);
  // Given in pieces of about a megabyte, never as one string of them all.
  assert.ok(Math.max(...[...proofs.json()].map((piece) => piece.length)) <= 2 * 1024 * 1024);
  assert.ok([...proofs.json()].length > 3);
});
