import { test } from "node:test";
import assert from "node:assert/strict";
import { claudePermissionMode, codexPolicies, postureFrom } from "../lib/posture/posture.ts";

test("every Claude Code permission mode survives Claude to Codex to Claude by meaning", () => {
  for (const mode of ["default", "acceptEdits", "plan", "bypassPermissions"]) {
    const codex = codexPolicies(postureFrom("claude-code", mode)!);
    const back = postureFrom("codex", `${codex.approval} ${codex.sandbox}`)!;
    const expected = mode === "acceptEdits" ? "default" : mode;
    assert.equal(claudePermissionMode(back), expected, mode);
  }
});

test("Codex policies map to Claude Code words, never copied as foreign words", () => {
  assert.equal(claudePermissionMode(postureFrom("codex", "never danger-full-access")!), "bypassPermissions");
  assert.equal(claudePermissionMode(postureFrom("codex", "never read-only")!), "plan");
  assert.equal(claudePermissionMode(postureFrom("codex", "on-request workspace-write")!), "default");
  assert.deepEqual(codexPolicies(postureFrom("claude-code", "bypassPermissions")!), {
    approval: "never",
    sandbox: "danger-full-access",
  });
});

test("words without an equivalent map to nothing", () => {
  assert.equal(postureFrom("claude-code", "dontAsk"), undefined);
  assert.equal(postureFrom("codex", "sometimes read-only"), undefined);
  assert.equal(postureFrom("hermes", "yolo"), undefined);
});
