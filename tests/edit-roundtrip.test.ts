/**
 * A real Claude Code Edit call (the edit-tool fixture) handed to Codex and back: in Codex it is the freeform
 * apply_patch call Codex itself records, answered by its output; back in Claude it is the identical Edit,
 * restored from the provenance the first hop left in session-bridge's home.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { homeFlags, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const claudeHome = join(root, "claude");
const source = seedClaudeHome(claudeHome, "edit-tool");
const codexHome = join(root, "codex");
makeCodexHome(codexHome);
mkdirSync(join(root, "project"));
const cwd = realpathSync(join(root, "project"));
const homes = homeFlags({ "claude-code": claudeHome, codex: codexHome }, root);

interface ToolUse {
  type: string;
  id: string;
  name: string;
  input: unknown;
}

/** A handoff with session-bridge's own home at `bridge`; returns the written session's id and main file. */
async function handoff(
  id: string,
  from: string,
  to: string,
  bridge: string,
): Promise<{ id: string; path: string }> {
  const r = await runCliJson(["handoff", id, "--from", from, "--to", to, "--cwd", cwd, ...homes], {
    SESSION_BRIDGE_HOME: bridge,
  });
  assert.equal(r.code, 0, r.stderr);
  return r.json.target as { id: string; path: string };
}

/** The Edit tool_use blocks of a Claude transcript, as recorded. */
function edits(path: string): ToolUse[] {
  return jsonLines(path).flatMap((r) => {
    const content = r.type === "assistant" ? (r.message as { content?: unknown }).content : undefined;
    return Array.isArray(content) ? (content as ToolUse[]).filter((b) => b.type === "tool_use") : [];
  }).filter((b) => b.name === "Edit");
}

const bridge = join(root, "bridge");
const inCodex = await handoff(source.id, "claude-code", "codex", bridge);
const [original] = edits(source.path);

test("the captured Edit call is the binary's own (absolute file_path, old_string, new_string)", () => {
  assert.equal(edits(source.path).length, 1);
  const input = original!.input as Record<string, unknown>;
  assert.equal(input.file_path, "/home/user/project/notes.txt");
  assert.equal(input.old_string, "draft");
  assert.equal(input.new_string, "final");
});

test("in Codex the Edit is a custom_tool_call apply_patch with an Update File patch, paired with its output", () => {
  const items = jsonLines(inCodex.path).filter((l) => l.type === "response_item").map((l) =>
    l.payload as Record<string, unknown>
  );
  const calls = items.filter((i) => i.type === "custom_tool_call");
  assert.equal(calls.length, 1);
  const [call] = calls;
  assert.equal(call!.name, "apply_patch");
  assert.equal(call!.call_id, original!.id);
  assert.match(
    String(call!.input),
    /^\*\*\* Begin Patch\n\*\*\* Update File: \/home\/user\/project\/notes\.txt\n@@\n-draft\n\+final\n\*\*\* End Patch/,
  );
  assert.ok(!items.some((i) => i.type === "function_call"), "not a function call");
  const outputs = items.filter((i) => i.type === "custom_tool_call_output" && i.call_id === call!.call_id);
  assert.equal(outputs.length, 1);
  assert.match(String(outputs[0]!.output), /has been updated successfully/);
});

test("handed back from Codex to Claude Code, the Edit is the identical native call", async () => {
  const back = await handoff(inCodex.id, "codex", "claude-code", bridge);
  const [restored] = edits(back.path);
  assert.equal(edits(back.path).length, 1);
  assert.deepEqual({ name: restored!.name, input: restored!.input }, {
    name: original!.name,
    input: original!.input,
  });
  assert.equal(restored!.id, original!.id);
});

test("without the first hop's provenance the apply_patch still comes back as an Edit of the same text", async () => {
  const back = await handoff(inCodex.id, "codex", "claude-code", join(root, "empty-bridge"));
  const [restored] = edits(back.path);
  const { replace_all: _, ...meaning } = original!.input as Record<string, unknown>;
  assert.deepEqual(restored!.input, meaning, "only the binary's own replace_all: false default is not known");
});
