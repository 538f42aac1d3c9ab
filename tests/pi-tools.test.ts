/**
 * Pi's tools and permission posture in canonical terms, against the calls the 0.73.1 binary wrote
 * (fixtures/pi/0.73.1/exec-tools.jsonl) and the parameter schemas it declares.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { piTools } from "../lib/harnesses/pi/tools.ts";
import { piPosture } from "../lib/harnesses/pi/posture.ts";
import { resumePi } from "../lib/harnesses/pi/resume.ts";

const EXEC_TOOLS = fileURLToPath(new URL("../fixtures/pi/0.73.1/exec-tools.jsonl", import.meta.url));

/** The tool calls of the captured session, as Pi wrote them. */
function capturedCalls(): { name: string; input: unknown }[] {
  const calls: { name: string; input: unknown }[] = [];
  for (const line of readFileSync(EXEC_TOOLS, "utf8").trimEnd().split("\n")) {
    const { message } = JSON.parse(line) as {
      message?: { role: string; content: Record<string, unknown>[] };
    };
    if (message?.role !== "assistant") continue;
    for (const b of message.content) {
      if (b.type === "toolCall") calls.push({ name: String(b.name), input: b.arguments });
    }
  }
  return calls;
}

test("Pi's captured bash, read, edit and write calls read as their canonical kinds and come back unchanged", () => {
  const calls = capturedCalls();
  assert.deepEqual(calls.map((c) => piTools.toCanonical(c)), [
    { kind: "shell", command: "printf 'alpha\\nbeta\\n' > notes.txt && echo wrote" },
    { kind: "read", path: "notes.txt" },
    { kind: "edit", path: "notes.txt", edits: [{ oldText: "beta", newText: "gamma" }] },
    { kind: "write", path: "summary.txt", content: "alpha and gamma\n" },
  ]);
  for (const call of calls) assert.deepEqual(piTools.fromCanonical(piTools.toCanonical(call)!), call);
});

test("an edit call in Pi's older shape (oldText and newText at the top) is still an edit, as Pi still takes it", () => {
  assert.deepEqual(
    piTools.toCanonical({ name: "edit", input: { path: "a.txt", oldText: "x", newText: "y" } }),
    {
      kind: "edit",
      path: "a.txt",
      edits: [{ oldText: "x", newText: "y" }],
    },
  );
});

test("a shell call's timeout is seconds in Pi, milliseconds in canonical terms; a working folder runs through cd", () => {
  assert.deepEqual(piTools.toCanonical({ name: "bash", input: { command: "ls", timeout: 30 } }), {
    kind: "shell",
    command: "ls",
    timeoutMs: 30000,
  });
  assert.deepEqual(
    piTools.fromCanonical({ kind: "shell", command: "ls", workdir: "/tmp/a b", timeoutMs: 1500 }),
    {
      name: "bash",
      input: { command: "cd '/tmp/a b' && ls", timeout: 2 },
    },
  );
});

test("kinds Pi has no tool for pass through by name: web, todo, subagent, a replace-all edit", () => {
  assert.equal(piTools.fromCanonical({ kind: "web_search", query: "q" }), undefined);
  assert.equal(piTools.fromCanonical({ kind: "plan", items: [] }), undefined);
  assert.equal(piTools.fromCanonical({ kind: "subagent", prompt: "p" }), undefined);
  assert.equal(
    piTools.fromCanonical({
      kind: "edit",
      path: "a",
      edits: [{ oldText: "x", newText: "y", replaceAll: true }],
    }),
    undefined,
  );
});

test("Pi never asks: told nothing it allows everything, and a posture that asks gets the reading tools only", () => {
  assert.deepEqual(piPosture.own, { approval: "never", sandbox: "full-access" });
  assert.equal(piPosture.words({ approval: "on-request", sandbox: "workspace-write" }), "read-only");
  assert.equal(piPosture.words({ approval: "never", sandbox: "full-access" }), "default");
  const env = { HOME: "/home/user" };
  assert.equal(
    resumePi({
      id: "01a23c1c-5e56-76f1-b152-f8e74b338937",
      cwd: "/home/user/project",
      home: "/home/user/.pi/agent",
      env,
      posture: { approval: "on-request", sandbox: "workspace-write" },
    }),
    "cd /home/user/project && pi --session 01a23c1c-5e56-76f1-b152-f8e74b338937 --tools 'read,grep,find,ls'",
  );
});
