/**
 * GitHub Copilot CLI's words for what other harnesses say: its tools in canonical terms both ways (the argument
 * names its 1.0.102 binary declares), its model ids, and its permission modes by meaning, never wider.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copilotTools } from "../lib/harnesses/copilot-cli/tools.ts";
import { copilotModels } from "../lib/harnesses/copilot-cli/models.ts";
import { copilotPermissionMode, copilotPosture } from "../lib/harnesses/copilot-cli/posture.ts";
import type { CanonicalCall } from "../lib/tools/canonical.ts";

test("every canonical kind Copilot has a tool for is written in its own names and arguments, and reads back the same", () => {
  const calls: [CanonicalCall, { name: string; input: unknown }][] = [
    [{ kind: "shell", command: "ls -la", description: "List files" }, {
      name: "bash",
      input: { command: "ls -la", description: "List files" },
    }],
    [{ kind: "read", path: "/p/a.txt", offset: 3, limit: 5 }, {
      name: "view",
      input: { path: "/p/a.txt", view_range: [3, 7] },
    }],
    [{ kind: "write", path: "/p/b.txt", content: "x\n" }, {
      name: "create",
      input: { path: "/p/b.txt", file_text: "x\n" },
    }],
    [{ kind: "edit", path: "/p/b.txt", edits: [{ oldText: "x", newText: "y" }] }, {
      name: "edit",
      input: { path: "/p/b.txt", old_str: "x", new_str: "y" },
    }],
    [{ kind: "search", pattern: "TODO", path: "src", glob: "*.ts" }, {
      name: "grep",
      input: { pattern: "TODO", paths: "src", glob: "*.ts" },
    }],
    [{ kind: "list", pattern: "**/*.md", path: "docs" }, {
      name: "glob",
      input: { pattern: "**/*.md", path: "docs" },
    }],
    [{ kind: "web_fetch", url: "https://example.com/" }, {
      name: "web_fetch",
      input: { url: "https://example.com/" },
    }],
    [{ kind: "subagent", prompt: "Look around the project.", description: "Scout" }, {
      name: "task",
      input: { description: "Scout", prompt: "Look around the project.", agent_type: "general-purpose" },
    }],
  ];
  for (const [canonical, native] of calls) {
    assert.deepEqual(copilotTools.fromCanonical(canonical), native, canonical.kind);
    assert.deepEqual(copilotTools.toCanonical(native), canonical, canonical.kind);
  }
});

test("a read to the end of the file is view_range [first, -1]; a shell call without a description gets its first words", () => {
  assert.deepEqual(copilotTools.toCanonical({ name: "view", input: { path: "/a", view_range: [10, -1] } }), {
    kind: "read",
    path: "/a",
    offset: 10,
  });
  assert.deepEqual(copilotTools.fromCanonical({ kind: "shell", command: "npm test -- --watch=false now" }), {
    name: "bash",
    input: { command: "npm test -- --watch=false now", description: "npm test -- --watch=false now" },
  });
});

test("a plan becomes the todo list Copilot keeps, written through its sql tool, each quote doubled", () => {
  const call = copilotTools.fromCanonical({
    kind: "plan",
    items: [{ text: "Fix Bob's bug", status: "completed" }, { text: "Ship", status: "in_progress" }],
  });
  assert.deepEqual(call, {
    name: "sql",
    input: {
      description: "Update the todo list",
      query: "DELETE FROM todo_deps; DELETE FROM todos; INSERT INTO todos (id, title, status) VALUES " +
        "('t1', 'Fix Bob''s bug', 'done'), ('t2', 'Ship', 'in_progress');",
    },
  });
});

test("what Copilot has no tool for passes by name: several edits at once, a patch, a web search", () => {
  assert.equal(
    copilotTools.fromCanonical({
      kind: "edit",
      path: "/a",
      edits: [{ oldText: "a", newText: "b" }, { oldText: "c", newText: "d" }],
    }),
    undefined,
  );
  assert.equal(copilotTools.fromCanonical({ kind: "web_search", query: "copilot" }), undefined);
  assert.equal(
    copilotTools.fromCanonical({ kind: "patch", files: [{ op: "delete", path: "/a" }] }),
    undefined,
  );
});

test("model ids: Anthropic's hyphenated Claude ids in Copilot's dotted form, router prefixes dropped, other vendors' ids none", () => {
  assert.equal(copilotModels.map("claude-sonnet-4-5-20250929"), "claude-sonnet-4.5");
  assert.equal(copilotModels.map("anthropic/claude-opus-4-5"), "claude-opus-4.5");
  assert.equal(copilotModels.map("claude-sonnet-4.5"), "claude-sonnet-4.5");
  assert.equal(copilotModels.map("openai/gpt-5.1"), "gpt-5.1");
  assert.equal(copilotModels.map("gemini-3-pro-preview"), "gemini-3-pro-preview");
  assert.equal(copilotModels.map("llama-3.3-70b"), undefined);
});

test("permission modes by meaning: a posture gets the widest mode within it, never wider, plan when nothing fits", () => {
  assert.equal(copilotPermissionMode({ approval: "never", sandbox: "full-access" }), "allow-all");
  assert.equal(copilotPermissionMode({ approval: "on-request", sandbox: "workspace-write" }), "manual");
  // `assisted` is no mode a resume command can state without experimental features: manual allows less.
  assert.equal(copilotPermissionMode({ approval: "never", sandbox: "workspace-write" }), "manual");
  assert.equal(copilotPermissionMode({ approval: "always", sandbox: "workspace-write" }), "plan");
  assert.equal(copilotPermissionMode({ approval: "on-request", sandbox: "read-only" }), "plan");
  assert.deepEqual(copilotPosture.own, { approval: "on-request", sandbox: "workspace-write" });
  // Its own words come back as they were on a hop back, but for `assisted`; a word it does not have means nothing.
  assert.equal(
    copilotPermissionMode({ ...copilotPosture.own, native: { harness: "copilot-cli", words: "plan" } }),
    "plan",
  );
  assert.equal(
    copilotPermissionMode({ ...copilotPosture.own, native: { harness: "copilot-cli", words: "assisted" } }),
    "manual",
  );
  assert.equal(copilotPosture.toPosture("constructor"), undefined);
});
