import { test } from "node:test";
import assert from "node:assert/strict";
import { RecordClock } from "../lib/ir/clock.ts";

test("rendered record times read as toISOString writes them, across seconds, years past 9999 and before 1970", () => {
  for (
    const start of ["2026-12-01T22:43:05.997Z", "+010000-01-01T00:00:00.998Z", "1969-12-31T23:59:59.998Z"]
  ) {
    const at = Date.parse(start);
    const clock = new RecordClock(new Date(at + 10_000), start);
    // Gaps tick a millisecond at a time, over the second's end; a repeated source time moves on too.
    const times = [clock.next(start), clock.next(), clock.next(), clock.next(start), clock.next()];
    assert.deepEqual(times, [0, 1, 2, 3, 4].map((d) => new Date(at + d).toISOString()));
  }
});

test("rendered record times keep a later source time, never run backwards and never pass now", () => {
  const now = new Date("2026-12-01T12:00:00.000Z");
  const clock = new RecordClock(now, "2026-12-01T10:00:00.000Z");
  assert.equal(clock.next("2026-12-01T10:00:00.000Z"), "2026-12-01T10:00:00.000Z");
  assert.equal(clock.next("2026-12-01T11:30:00.250Z"), "2026-12-01T11:30:00.250Z");
  assert.equal(clock.next("2026-12-01T09:00:00.000Z"), "2026-12-01T11:30:00.251Z");
  assert.equal(clock.next("2027-01-01T00:00:00.000Z"), "2026-12-01T12:00:00.000Z");
  assert.equal(clock.next("not a time"), "2026-12-01T12:00:00.000Z");
});
