/**
 * A fit's kept tokens (lib/fit/kept.ts): the tokens from a cut to the end, counted back from the most recent
 * only as far as a question needs, each answer the same as a count of every message up front.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { KeptTokens } from "../lib/fit/kept.ts";

const COUNTS = [5, 9, 2, 7, 4, 8, 3, 6];

test("a cut's kept tokens are counted back from the end only as far as the room asked, and are exact within it", () => {
  const counted: number[] = [];
  const kept = new KeptTokens(COUNTS.length, 2, (i) => {
    counted.push(i);
    return COUNTS[i]!;
  });
  const suffix = (c: number) => COUNTS.slice(c).reduce((sum, n) => sum + n, 0);
  // Within the room: the exact tokens, counting only the messages after the cut.
  assert.equal(kept.within(6, 100), suffix(6));
  assert.deepEqual(counted, [7, 6]);
  // Over a small room: some number over it, counted no further than the first message that passes it.
  const over = kept.within(2, 10);
  assert.ok(over > 10 && over <= suffix(2), `${over}`);
  assert.deepEqual(counted, [7, 6, 5]);
  // Each answer agrees with the count of every message, whatever was asked before.
  for (let c = 2; c <= COUNTS.length; c++) assert.equal(kept.within(c, Infinity), suffix(c));
  assert.deepEqual(counted, [7, 6, 5, 4, 3, 2], "each message counted once");
  assert.throws(() => kept.within(1, 100), /not among the held/);
});

test("a message's count is told the tokens after it, as the count up front was", () => {
  const after: number[] = [];
  const kept = new KeptTokens(4, 0, (i, tokens) => {
    after.push(tokens);
    return i + 1;
  });
  assert.equal(kept.within(0, Infinity), 10);
  assert.deepEqual(after, [0, 4, 7, 9]);
});
