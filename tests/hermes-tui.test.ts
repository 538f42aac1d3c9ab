import { test } from "node:test";
import assert from "node:assert/strict";
import { inputState } from "../lib/harnesses/hermes/certify/tui.ts";
import { hermesReply } from "../lib/harnesses/hermes/certify/run.ts";

// Screens' last lines as the Hermes 0.19.0 TUI drew them in tmux (fixtures/hermes/0.19.0 interrupted capture).
const RULE = "─".repeat(60);

test("the Hermes TUI waits for the person only when its input line shows ❯ without ⚕", () => {
  const busy = [
    "  💻 sleep 600 + 1 command  (  5.4s)",
    " ⚕ fake-model-1 │ 2.42K/131.1K │ [░░░░░░░░░░] 2% │ 26s │ ⏱ 5s",
    RULE,
    "⚕ ❯ msg=interrupt · /queue · /bg · /steer · Ctrl+C cancel",
    RULE,
  ].join("\n");
  const idle = [
    "    ASSISTANT-REPLY: acknowledged, turn 3, digest bdb05e83.",
    " ⚕ fake-model-1 │ 2.53K/131.1K │ [░░░░░░░░░░] 2% │ 33s │ ⏲ 0s │ ✓ 0s",
    RULE,
    "❯",
    RULE,
    "",
  ].join("\n");
  const typedWhileCancelled = [" ⚕ fake-model-1 │ 2.42K/131.1K", RULE, "❯ queued words BETA-2", RULE].join(
    "\n",
  );
  assert.equal(inputState(busy), "busy");
  assert.equal(inputState(idle), "idle");
  assert.equal(inputState(typedWhileCancelled), "idle");
  assert.equal(inputState("Initializing agent..."), "unknown");
});

test("a resumed Hermes 0.14 turn's answer is read without the '↻ Resumed session' banner it prints first", () => {
  const stdout = [
    '  ↻ Resumed session 20261201_041447_b6e07c "Remember the word" (2 user messages, 7 total\r',
    "messages)\r",
    "ASSISTANT-REPLY: acknowledged, turn 3.",
    "",
    "session_id: 20261201_041447_b6e07c",
  ].join("\n");
  assert.equal(hermesReply(stdout), "ASSISTANT-REPLY: acknowledged, turn 3.");
  assert.equal(
    hermesReply("  ↻ Resumed session 20261201_041447_b6e07c (1 user message, 2 total)\nASSISTANT-REPLY: hi."),
    "ASSISTANT-REPLY: hi.",
  );
  assert.equal(hermesReply("ASSISTANT-REPLY: hello.\n"), "ASSISTANT-REPLY: hello.");
});
