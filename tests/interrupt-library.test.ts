/** Signals held during a write, as a long-lived program using the library sees them across several writes. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkpoint, holdingSignals, receivedSignal } from "../lib/io/interrupt.ts";
import { InterruptedError } from "../lib/errors.ts";

test("a Ctrl-C during one held write stops that write only: the next write in the same process goes ahead", async () => {
  await assert.rejects(
    holdingSignals(() => {
      process.emit("SIGINT", "SIGINT");
      checkpoint();
      return Promise.resolve();
    }),
    InterruptedError,
  );
  // Still readable once the write is over (the CLI reports a signal that arrived after a commit this way).
  assert.equal(receivedSignal(), "SIGINT");
  assert.equal(
    await holdingSignals(() => {
      checkpoint();
      return Promise.resolve("written");
    }),
    "written",
  );
  assert.equal(receivedSignal(), undefined);
});
