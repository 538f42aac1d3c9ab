/**
 * Every target gets tool calls whose arguments its harness parses: a JSON object for every harness whose
 * calls take one (all but Codex's freeform apply_patch), for every kind of the canonical vocabulary and for
 * Codex's own patches that add, delete and move files. Expected forms are written out by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Block, Session } from "../lib/ir/schema.ts";
import { BUILTIN_HARNESSES, type HarnessName } from "../lib/harnesses/registry.ts";
import type { CanonicalCall } from "../lib/tools/canonical.ts";
import { noTranslation, toolTranslator } from "../lib/tools/translate.ts";
import { emptySession } from "../lib/ir/session.ts";
import { isObject } from "../lib/io/json.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

type Call = Extract<Block, { type: "tool_call" }>;

function translated(from: HarnessName, to: HarnessName, name: string, input: unknown): Call {
  const side = (h: HarnessName) => ({ name: h, tools: BUILTIN_HARNESSES[h].conversation.tools });
  const session: Session = {
    ...emptySession({ harness: from, id: "s1", models: [] }),
    messages: [{
      uid: "m1",
      parentUid: null,
      role: "assistant",
      kind: "turn",
      blocks: [{ type: "tool_call", id: "call_1", name, input }],
    }],
  };
  const [m] = session.messages;
  const out = toolTranslator(side(from), side(to))(m!, noTranslation());
  return out.blocks[0] as Call;
}

const MULTI_HUNK = [
  "*** Begin Patch",
  "*** Update File: src/app.ts",
  "@@",
  "-const a = 1;",
  "+const a = 2;",
  "@@ function main",
  " keep();",
  "-old();",
  "+renewed();",
  "*** End Patch",
].join("\n");

const ADD_DELETE_MOVE = [
  "*** Begin Patch",
  "*** Add File: docs/new.md",
  "+# New",
  "*** Delete File: docs/old.md",
  "*** Update File: src/a.ts",
  "*** Move to: src/b.ts",
  "@@",
  "-export const x = 1;",
  "+export const x = 2;",
  "*** End Patch",
].join("\n");

const CANONICAL: CanonicalCall[] = [
  { kind: "shell", command: "npm test", workdir: "/p", timeoutMs: 5000, description: "tests" },
  { kind: "read", path: "/p/a.ts", offset: 3, limit: 4 },
  { kind: "write", path: "/p/a.ts", content: "one\n" },
  { kind: "edit", path: "/p/a.ts", edits: [{ oldText: "a", newText: "b" }] },
  { kind: "edit", path: "/p/a.ts", edits: [{ oldText: "a", newText: "b" }, { oldText: "c", newText: "d" }] },
  { kind: "search", pattern: "TODO", path: "src", glob: "*.ts" },
  { kind: "list", pattern: "*.ts", path: "src" },
  { kind: "web_fetch", url: "https://example.com/", prompt: "Summarize https://example.com/" },
  { kind: "web_search", query: "session bridge" },
  { kind: "plan", items: [{ text: "fix it", status: "in_progress" }] },
  { kind: "subagent", prompt: "look around", description: "explore" },
  {
    kind: "patch",
    files: [
      { op: "add", path: "n.txt", content: "hi\n" },
      { op: "delete", path: "o.txt" },
      { op: "update", path: "a.ts", moveTo: "b.ts", edits: [{ oldText: "x", newText: "y" }] },
    ],
  },
];

/** What each harness's calls take: Codex's apply_patch alone is freeform text. */
function assertParsedBy(target: HarnessName, call: Call, what: string) {
  if (target === "codex" && call.name === "apply_patch") {
    assert.equal(typeof call.input, "string", `${what}: Codex's apply_patch takes its patch as text`);
  } else assert.ok(isObject(call.input), `${what}: ${target} gets ${JSON.stringify(call.input)}`);
}

const HARNESSES = Object.keys(BUILTIN_HARNESSES) as HarnessName[];

test("every target's tool arguments are what its harness parses, for every kind of the canonical vocabulary", () => {
  for (const from of HARNESSES) {
    const vocabulary = BUILTIN_HARNESSES[from].conversation.tools;
    const sourceCalls = CANONICAL.flatMap((c) => {
      const native = vocabulary.fromCanonical(c);
      return native ? [{ what: `${from} ${c.kind}`, ...native }] : [];
    });
    if (from === "codex") {
      sourceCalls.push(
        { what: "codex multi-hunk patch", name: "apply_patch", input: MULTI_HUNK },
        { what: "codex add/delete/move patch", name: "apply_patch", input: ADD_DELETE_MOVE },
        { what: "codex patch that does not parse", name: "apply_patch", input: "*** Begin Patch\nnonsense" },
      );
    }
    for (const to of HARNESSES.filter((h) => h !== from)) {
      for (const { what, name, input } of sourceCalls) {
        assertParsedBy(to, translated(from, to, name, input), `${what} -> ${to}`);
      }
    }
  }
});

test("a multi-hunk apply_patch reaches Hermes as a patch call in patch mode, every hunk kept", () => {
  const call = translated("codex", "hermes", "apply_patch", MULTI_HUNK);
  assert.deepEqual({ name: call.name, input: call.input }, {
    name: "patch",
    input: {
      mode: "patch",
      patch: [
        "*** Begin Patch",
        "*** Update File: src/app.ts",
        "@@",
        "-const a = 1;",
        "+const a = 2;",
        // A context line is in both the old and the new text of its hunk.
        "@@",
        "-keep();",
        "-old();",
        "+keep();",
        "+renewed();",
        "*** End Patch",
      ].join("\n"),
    },
  });
  assert.deepEqual(call.native, { harness: "codex", name: "apply_patch", input: MULTI_HUNK });
});

test("a Codex patch that adds, deletes and moves files reaches Hermes in its V4A dialect, and comes back to Codex by meaning", () => {
  const call = translated("codex", "hermes", "apply_patch", ADD_DELETE_MOVE);
  const v4a = [
    "*** Begin Patch",
    "*** Add File: docs/new.md",
    "+# New",
    "*** Delete File: docs/old.md",
    "*** Update File: src/a.ts",
    "@@",
    "-export const x = 1;",
    "+export const x = 2;",
    "*** Move File: src/a.ts -> src/b.ts",
    "*** End Patch",
  ].join("\n");
  assert.deepEqual({ name: call.name, input: call.input }, {
    name: "patch",
    input: { mode: "patch", patch: v4a },
  });
  // Read back from Hermes without the native form: the same patch in Codex's grammar.
  const back = translated("hermes", "codex", "patch", { mode: "patch", patch: v4a });
  assert.deepEqual({ name: back.name, input: back.input }, {
    name: "apply_patch",
    input: [
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# New",
      "*** Delete File: docs/old.md",
      "*** Update File: src/a.ts",
      "*** Move to: src/b.ts",
      "@@",
      "-export const x = 1;",
      "+export const x = 2;",
      "*** End Patch",
    ].join("\n"),
  });
});

test("a Codex patch no other harness has one call for keeps its name with the patch text as an object's input", () => {
  for (const to of ["claude-code", "gemini-cli"] as const) {
    const call = translated("codex", to, "apply_patch", ADD_DELETE_MOVE);
    assert.deepEqual({ name: call.name, input: call.input }, {
      name: "apply_patch",
      input: { input: ADD_DELETE_MOVE },
    });
    // The hop back restores the freeform call exactly.
    assert.deepEqual(call.native, { harness: "codex", name: "apply_patch", input: ADD_DELETE_MOVE });
  }
});

test("codex -> hermes: a multi-hunk apply_patch is stored as JSON arguments Hermes loads", async () => {
  const root = tempDir();
  const codexHome = join(root, "codex");
  makeCodexHome(codexHome);
  const seeded = seedCodexThread(codexHome, "0.169.0", "apply-patch");
  // The captured single-file patch, made several hunks: what the model wrote with more than one change.
  const lines = readFileSync(seeded.path, "utf8").split("\n").map((line) => {
    if (!line.includes('"custom_tool_call"')) return line;
    const record = JSON.parse(line) as { payload: { input: string } };
    record.payload.input = `${MULTI_HUNK}\n`;
    return JSON.stringify(record);
  });
  writeFileSync(seeded.path, lines.join("\n"));
  const hermesHome = join(root, "hermes");
  const db = seedHermesHome(hermesHome, "0.19.0", "text-turns");
  mkdirSync(join(root, "project"));
  const r = await runCliJson([
    "handoff",
    seeded.id,
    "--to",
    "hermes",
    "--cwd",
    realpathSync(join(root, "project")),
    "--codex-home",
    codexHome,
    "--hermes-home",
    hermesHome,
  ], { SESSION_BRIDGE_HOME: join(root, "bridge") });
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json as { target: { id: string } }).target.id;
  const rows = query(
    db,
    "SELECT tool_calls FROM messages WHERE session_id = ? AND tool_calls IS NOT NULL",
    id,
  );
  const calls = rows.flatMap((row) =>
    (JSON.parse(row.tool_calls as string) as { function: { name: string; arguments: string } }[])
      .map((c) => ({ name: c.function.name, args: JSON.parse(c.function.arguments) as unknown }))
  );
  assert.ok(calls.length > 0);
  for (const c of calls) assert.ok(isObject(c.args), `${c.name}: ${JSON.stringify(c.args)}`);
  const patch = calls.find((c) => c.name === "patch");
  assert.ok(patch && isObject(patch.args) && patch.args.mode === "patch", JSON.stringify(calls));
  assert.match(String(patch.args.patch), /renewed\(\);/);
});
