/**
 * Reading OpenCode 1.18.33's store: a database the real binary wrote offline (fixtures/opencode/1.18.33/
 * tools-subagent.opencode.db: `opencode run "say hello"`, then a run whose model called bash, read, write, edit,
 * glob, grep, todowrite and task, the task's subagent calling bash). Expectations are written by hand from its
 * rows. Revert, compaction, an interrupted call and queued prompts are the same rows with the columns OpenCode
 * sets for them (session.revert, a compaction part and its summary, a tool part left running).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { listOpenCode } from "../lib/harnesses/opencode/list.ts";
import { readOpenCodeSession } from "../lib/harnesses/opencode/read.ts";
import { openCodeTools } from "../lib/harnesses/opencode/tools.ts";
import { resolveFile } from "../lib/harnesses/resolve.ts";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { InputError } from "../lib/errors.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURE = fileURLToPath(
  new URL("../fixtures/opencode/1.18.33/tools-subagent.opencode.db", import.meta.url),
);
const ONE_SHOT = "ses_dc3d8df7cffeNJzKGSR7mICH2t";
const TOOLS = "ses_dc3d87accffeoT56EYUy2rtl0R";
const SUBAGENT = "ses_dc3d837bdffeDdWXDORcW93Y4O";

/** A home holding a copy of the captured store, changed by `edit` (SQL on the copy) first. */
function home(edit?: (db: DatabaseSync) => void): { home: string; database: string } {
  const home = join(tempDir(), "opencode");
  mkdirSync(home, { recursive: true });
  const database = join(home, "opencode.db");
  copyFileSync(FIXTURE, database);
  if (edit) {
    const db = new DatabaseSync(database);
    edit(db);
    db.close();
  }
  return { home, database };
}

const texts = (blocks: { type: string; text?: string }[]) =>
  blocks.flatMap((b) => b.type === "text" ? [b.text] : []);

test("OpenCode's list: its top-level sessions by title, directory and newest message; a task's subagent session is part of its parent", () => {
  const { home: h, database } = home();
  const rows = listOpenCode(h).sort((a, b) => a.id.localeCompare(b.id));
  assert.deepEqual(rows, [
    {
      harness: "opencode",
      id: TOOLS,
      path: `${database}#${TOOLS}`,
      cwd: "/home/user/project",
      title: "Fake Title",
      updatedAt: "2026-12-03T13:46:10.956Z",
      messages: 9,
    },
    {
      harness: "opencode",
      id: ONE_SHOT,
      path: `${database}#${ONE_SHOT}`,
      cwd: "/home/user/project",
      title: "Fake Title",
      updatedAt: "2026-12-03T13:45:34.790Z",
      messages: 2,
    },
  ]);
});

test("a session whose title request never answered is listed by the first words the user typed", () => {
  const { home: h } = home((db) =>
    db.prepare("UPDATE session SET title = ? WHERE id = ?").run(
      "New session - 2026-12-03T13:45:26.918Z",
      ONE_SHOT,
    )
  );
  assert.equal(listOpenCode(h).find((r) => r.id === ONE_SHOT)?.title, '"say hello"');
});

test("OpenCode's tool calls read in canonical terms, each result after its call, the subagent's session a thread", async () => {
  const { database } = home();
  const session = await readOpenCodeSession(`${database}#${TOOLS}`);
  const calls = session.messages.flatMap((m) => m.blocks.flatMap((b) => b.type === "tool_call" ? [b] : []));
  assert.deepEqual(calls.map((c) => openCodeTools.toCanonical({ name: c.name, input: c.input })?.kind), [
    "shell",
    "read",
    "write",
    "edit",
    "list",
    "search",
    "plan",
    "subagent",
  ]);
  const results = session.messages.flatMap((m) =>
    m.blocks.flatMap((b) => b.type === "tool_result" ? [b] : [])
  );
  assert.deepEqual(results.map((r) => r.callId), calls.map((c) => c.id));
  assert.deepEqual(texts(results[0]!.content as { type: string; text?: string }[]), ["hi\n"]);
  assert.deepEqual(texts(session.messages[0]!.blocks), ['"TOOLS please"']);
  assert.deepEqual(texts(session.messages.at(-1)!.blocks), ['REPLY to "TOOLS please"']);
  assert.deepEqual(session.threads.map((t) => [t.kind, t.id]), [["subagent", SUBAGENT]]);
  assert.deepEqual(texts(session.threads[0]!.messages[0]!.blocks), ["SUB: list files"]);
  assert.deepEqual(session.pending, { openToolCalls: [], queuedInput: [], interruptedTurn: false });
  assert.equal(session.meta.cwd, "/home/user/project");
  assert.deepEqual(session.meta.models, ["fake/fake-model"]);
});

test("a call OpenCode was killed in (its part left running) is open, and the turn interrupted", async () => {
  const { database } = home((db) => {
    const part = db.prepare(
      'SELECT id, data FROM part WHERE session_id = ? AND data LIKE \'%"tool":"task"%\'',
    )
      .get(TOOLS) as { id: string; data: string };
    const data = JSON.parse(part.data);
    data.state = { status: "running", input: data.state.input, time: { start: data.state.time.start } };
    db.prepare("UPDATE part SET data = ? WHERE id = ?").run(JSON.stringify(data), part.id);
    // Killed mid-call: nothing after the call's message was written.
    db.prepare("DELETE FROM message WHERE id = 'msg_23c27cc8c001sUQfEbDvZvyC8U'").run();
  });
  const session = await readOpenCodeSession(`${database}#${TOOLS}`);
  assert.deepEqual(session.pending.openToolCalls.map((c) => c.name), ["task"]);
  assert.equal(session.pending.interruptedTurn, true);
});

test("a pending revert hides the message it names and every later one: they are an abandoned branch", async () => {
  const { database } = home((db) =>
    db.prepare("UPDATE session SET revert = ? WHERE id = ?").run(
      JSON.stringify({ messageID: "msg_23c27c20a001IDqvNrzhj7hLG0" }),
      TOOLS,
    )
  );
  const session = await readOpenCodeSession(`${database}#${TOOLS}`);
  const calls = session.messages.flatMap((m) =>
    m.blocks.flatMap((b) => b.type === "tool_call" ? [b.name] : [])
  );
  assert.deepEqual(calls, ["bash", "read", "write", "edit"]);
  const branch = session.threads.find((t) => t.kind === "abandoned-branch");
  assert.deepEqual(texts(branch!.messages.at(-1)!.blocks), ['REPLY to "TOOLS please"']);
});

test("history before OpenCode's last finished compaction is a compacted thread; the summary starts the live one", async () => {
  const { database } = home((db) => {
    // /compact: a user message holding a compaction part, answered by an assistant summary, after the last reply.
    const at = 1796305580000;
    db.prepare(
      "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
    ).run(
      "msg_23c27f000001Compaction0001",
      TOOLS,
      at,
      at,
      JSON.stringify({ role: "user", time: { created: at }, agent: "build" }),
    );
    db.prepare(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
    )
      .run(
        "prt_23c27f000002Compaction0001",
        "msg_23c27f000001Compaction0001",
        TOOLS,
        at,
        at,
        '{"type":"compaction","auto":false}',
      );
    db.prepare(
      "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
    ).run(
      "msg_23c27f000003Compaction0001",
      TOOLS,
      at + 1,
      at + 1,
      JSON.stringify({
        role: "assistant",
        parentID: "msg_23c27f000001Compaction0001",
        summary: true,
        finish: "stop",
        time: { created: at + 1, completed: at + 2 },
      }),
    );
    db.prepare(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
    )
      .run(
        "prt_23c27f000004Compaction0001",
        "msg_23c27f000003Compaction0001",
        TOOLS,
        at + 1,
        at + 1,
        '{"type":"text","text":"We ran eight tools."}',
      );
  });
  const session = await readOpenCodeSession(`${database}#${TOOLS}`);
  // The summary on the user's side, as every reader gives a compaction's summary (lib/ir/schema.ts).
  assert.deepEqual(session.messages.map((m) => [m.role, m.kind]), [["user", "context"], ["user", "summary"]]);
  assert.deepEqual(texts(session.messages[1]!.blocks), ["We ran eight tools."]);
  const compacted = session.threads.find((t) => t.kind === "compacted")!;
  assert.deepEqual(texts(compacted.messages[0]!.blocks), ['"TOOLS please"']);
});

test("prompts no assistant message answers at the end of a session are queued input, not turns", async () => {
  const { database } = home((db) => {
    const at = 1796305590000;
    db.prepare(
      "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
    ).run(
      "msg_23c27f100001Queued00000001",
      ONE_SHOT,
      at,
      at,
      JSON.stringify({ role: "user", time: { created: at }, agent: "build" }),
    );
    db.prepare(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
    )
      .run(
        "prt_23c27f100002Queued00000001",
        "msg_23c27f100001Queued00000001",
        ONE_SHOT,
        at,
        at,
        '{"type":"text","text":"and then?"}',
      );
  });
  const session = await readOpenCodeSession(`${database}#${ONE_SHOT}`);
  assert.deepEqual(session.pending.queuedInput.map((q) => q.text), ["and then?"]);
  assert.deepEqual(session.messages.map((m) => m.role), ["user", "assistant"]);
});

test("a broken opencode.db fails its listing alone, in one line naming it", () => {
  const h = join(tempDir(), "opencode");
  mkdirSync(h, { recursive: true });
  writeFileSync(join(h, "opencode.db"), "SQLite format 3\u0000" + "garbage ".repeat(600));
  assert.throws(
    () => listOpenCode(h),
    (e: Error) =>
      e instanceof InputError && e.message.startsWith(join(h, "opencode.db")) && !e.message.includes("\n"),
  );
});

test("an OpenCode database named by path is OpenCode's by its tables, though Hermes takes any SQLite head", () => {
  const { database } = home();
  const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
    ? builtinRegistry
    : withHarness(builtinRegistry, openCode);
  assert.equal(resolveFile(`${database}#${TOOLS}`, registry).harness.name, "opencode");
  assert.equal(resolveFile(database, registry).harness.name, "opencode");
});

const EXPORTED = fileURLToPath(new URL("../fixtures/opencode/1.18.33/tools.export.json", import.meta.url));

test("a session in the file opencode export printed reads as the same conversation as its rows, named by the file", async () => {
  const [exported, stored] = [
    await readOpenCodeSession(EXPORTED),
    await readOpenCodeSession(`${FIXTURE}#${TOOLS}`),
  ];
  assert.equal(exported.meta.id, TOOLS);
  assert.equal(exported.meta.path, EXPORTED);
  assert.equal(exported.meta.cwd, stored.meta.cwd);
  assert.deepEqual(exported.messages, stored.messages);
});

test("a file that is neither an OpenCode database nor an export is bad input naming it", async () => {
  const file = join(tempDir(), "notes.json");
  writeFileSync(file, '{"hello": 1}\n');
  await assert.rejects(
    async () => await readOpenCodeSession(file),
    (error: unknown) =>
      error instanceof InputError &&
      error.message === `${file}: not an OpenCode export (expected {info, messages})`,
  );
});
