/** The demo runs the real commands in-process on a sandbox, and leaves the process it runs in as it found it. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { run } from "../lib/cli/main.ts";
import { outputTo } from "../lib/cli/output.ts";
import { tempDir } from "./helpers/tmp.ts";

test("the demo leaves process.env unchanged: its sandbox's session-bridge home travels in the environment it passes down", async () => {
  const bridgeHome = tempDir("sb-demo-bridge-");
  const env = { ...process.env, SESSION_BRIDGE_HOME: bridgeHome, SESSION_BRIDGE_DEBUG: "" };
  const before = { ...process.env };
  const output = { 1: "", 2: "" };
  const code = await run(["demo"], env, { output: outputTo((fd, text) => (output[fd] += text)) });
  assert.equal(code, 0, output[2]);
  assert.deepEqual({ ...process.env }, before);
  // Every step ran, and the handoffs' undo ledger went to the sandbox's home, not to the one in `env`.
  assert.match(output[1], /=== Hermes's store now holds it/);
  assert.match(output[1], /undo with:\n {2}session-bridge undo /);
  assert.deepEqual(readdirSync(bridgeHome), []);
});
