/**
 * Gemini CLI's tool vocabulary both ways, against the declarations in its 0.61.0 bundle: every canonical kind
 * becomes a call with the arguments its own parser requires, and reads back as the same canonical call.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { geminiTools } from "../lib/harnesses/gemini-cli/tools.ts";
import type { CanonicalCall } from "../lib/tools/canonical.ts";

const cases: [CanonicalCall, { name: string; input: unknown }][] = [
  [{ kind: "shell", command: "ls -la", workdir: "src" }, {
    name: "run_shell_command",
    input: { command: "ls -la", dir_path: "src" },
  }],
  [{ kind: "read", path: "/p/a.ts", offset: 10, limit: 5 }, {
    name: "read_file",
    input: { file_path: "/p/a.ts", start_line: 10, end_line: 14 },
  }],
  [{ kind: "write", path: "/p/b.txt", content: "hi\n" }, {
    name: "write_file",
    input: { file_path: "/p/b.txt", content: "hi\n" },
  }],
  [{ kind: "search", pattern: "TODO", path: "lib", glob: "*.ts" }, {
    name: "grep_search",
    input: { pattern: "TODO", dir_path: "lib", include_pattern: "*.ts" },
  }],
  [{ kind: "list", pattern: "**/*.md", path: "docs" }, {
    name: "glob",
    input: { pattern: "**/*.md", dir_path: "docs" },
  }],
  [{ kind: "web_search", query: "tidy kitchens" }, {
    name: "google_web_search",
    input: { query: "tidy kitchens" },
  }],
  [{ kind: "plan", items: [{ text: "read", status: "completed" }, { text: "write", status: "pending" }] }, {
    name: "write_todos",
    input: {
      todos: [{ description: "read", status: "completed" }, { description: "write", status: "pending" }],
    },
  }],
  [{ kind: "subagent", prompt: "count the files" }, {
    name: "invoke_agent",
    input: { agent_name: "generalist", prompt: "count the files" },
  }],
];

test("each canonical kind becomes the Gemini CLI call its declaration takes, and reads back the same", () => {
  for (const [canonical, native] of cases) {
    assert.deepEqual(geminiTools.fromCanonical(canonical), native, canonical.kind);
    assert.deepEqual(geminiTools.toCanonical(native), canonical, native.name);
  }
});

test("an edit is a replace call with the instruction its declaration requires; several edits have no one call", () => {
  const edit: CanonicalCall = { kind: "edit", path: "/p/a.ts", edits: [{ oldText: "a", newText: "b" }] };
  const call = geminiTools.fromCanonical(edit);
  assert.equal(call?.name, "replace");
  const input = call?.input as Record<string, unknown>;
  assert.deepEqual([input.file_path, input.old_string, input.new_string], ["/p/a.ts", "a", "b"]);
  assert.equal(typeof input.instruction, "string");
  assert.deepEqual(geminiTools.toCanonical(call!), edit);
  const two: CanonicalCall = {
    ...edit,
    edits: [{ oldText: "a", newText: "b" }, { oldText: "c", newText: "d" }],
  };
  assert.equal(geminiTools.fromCanonical(two), undefined);
});

test("web_fetch carries its URL inside its prompt, and reads the first URL of a prompt back as the url", () => {
  const call = geminiTools.fromCanonical({
    kind: "web_fetch",
    url: "https://example.com/a",
    prompt: "Summarize",
  });
  assert.deepEqual(call, { name: "web_fetch", input: { prompt: "Summarize https://example.com/a" } });
  assert.deepEqual(geminiTools.toCanonical(call!), {
    kind: "web_fetch",
    url: "https://example.com/a",
    prompt: "Summarize https://example.com/a",
  });
  assert.equal(
    geminiTools.toCanonical({ name: "web_fetch", input: { prompt: "no address here" } }),
    undefined,
  );
});
