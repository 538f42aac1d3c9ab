import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBase62 } from "../lib/ids.ts";
import { openCodeId } from "../lib/harnesses/opencode/ids.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

test("random base62 letters are each as likely: no letter gains from the bytes a modulo would fold onto it", () => {
  // 620,000 letters: 10,000 expected each. Folding bytes 248-255 onto the first eight letters would give them
  // 12,500 each; chance alone strays by some 100 (one standard deviation), so 10,600 is far from both.
  const counts = new Map<string, number>();
  for (let i = 0; i < 44_286; i++) {
    for (const letter of randomBase62(14)) counts.set(letter, (counts.get(letter) ?? 0) + 1);
  }
  assert.deepEqual([...counts.keys()].sort(), [...BASE62].sort());
  for (const [letter, count] of counts) {
    assert.ok(count > 9_400 && count < 10_600, `${letter} came ${count} times of about 10,000`);
  }
});

test("an OpenCode id ends in 14 random base62 letters, different for each id of the same time", () => {
  const ids = Array.from({ length: 5000 }, () => openCodeId("msg", 1_767_225_600_000));
  for (const id of ids) assert.match(id, /^msg_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
  assert.equal(new Set(ids.map((id) => id.slice(0, 16))).size, 1);
  assert.equal(new Set(ids).size, ids.length);
});
