import { test } from "node:test";
import assert from "node:assert/strict";
import { newUuidV7 } from "../lib/ids.ts";

test("minted ids are RFC 9562 version 7 UUIDs: the time's milliseconds first, then random bits", () => {
  const at = new Date("2026-12-01T22:43:05.123Z");
  const ids = Array.from({ length: 2000 }, () => newUuidV7(at));
  for (const id of ids) {
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(parseInt(id.replace(/-/g, "").slice(0, 12), 16), at.getTime());
  }
  assert.equal(new Set(ids).size, ids.length);
  // Every hex digit turns up in the random part: no byte is stuck.
  assert.equal(new Set(ids.map((id) => id.slice(-12)).join("")).size, 16);
});

test("ids minted later sort after earlier ones, whatever their random bits", () => {
  const times = [0, 1, 255, 256, 2 ** 40, 1_700_000_000_000, 1_700_000_000_001, 2 ** 48 - 1].map((ms) =>
    new Date(ms)
  );
  const ids = times.map((t) => newUuidV7(t));
  assert.deepEqual([...ids].sort(), ids);
  assert.match(newUuidV7(new Date(-5)), /^00000000-0000-7/);
});
