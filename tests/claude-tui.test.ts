import { test } from "node:test";
import assert from "node:assert/strict";
import { bashRules } from "../lib/harnesses/claude-code/certify/tui.ts";

test("every part of a compound command the TUI seeding runs is allowed by its own Bash rule", () => {
  assert.deepEqual(bashRules("timeout 600 tail -f /dev/null; echo slow-sentinel-x"), [
    "Bash(timeout 600 tail -f /dev/null; echo slow-sentinel-x)",
    "Bash(timeout 600 tail -f /dev/null)",
    "Bash(echo slow-sentinel-x)",
  ]);
  assert.deepEqual(bashRules("echo a && sleep 600 | cat"), [
    "Bash(echo a && sleep 600 | cat)",
    "Bash(echo a)",
    "Bash(sleep 600)",
    "Bash(cat)",
  ]);
  assert.deepEqual(bashRules("echo fixture-tui-tool-output"), ["Bash(echo fixture-tui-tool-output)"]);
});
