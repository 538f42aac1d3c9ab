/**
 * A large OpenCode session is converted streamed (lib/harnesses/opencode/read.ts `openOpenCodeSession`): its
 * rows indexed once, read whole once for everything but the live thread, and the live thread read again from
 * opencode.db on each pass. What it gives must be the very session the held reader gives, for every session of
 * every opencode.db the real OpenCode wrote (and those with a pending revert cutting a message, a compaction
 * keeping a tail, prompts queued); its index, columns and no object a message, must tell each message as the
 * held messages do; rows removed between passes are bad input naming the database, and rows added since the
 * index are left out.
 */
import {
  assertChangeRefused,
  assertSpilledApart,
  assertStreamedAsHeld,
  changeDatabase,
  STREAM_ALL,
} from "./helpers/streaming.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { openOpenCodeSession, readOpenCodeSession } from "../lib/harnesses/opencode/read.ts";
import { indexedSession, storedSession } from "../lib/harnesses/opencode/rows.ts";
import type { SessionTree } from "../lib/harnesses/opencode/stored.ts";
import {
  ASSISTANT,
  heldIndex,
  IndexedMessages,
  type MessageIndex,
} from "../lib/harnesses/opencode/message-index.ts";
import { sessionLocator } from "../lib/harnesses/locator.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/opencode/1.18.33/", import.meta.url));

function query(db: string, sql: string, ...params: string[]): Record<string, unknown>[] {
  const conn = new DatabaseSync(db, { readOnly: true });
  try {
    return conn.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    conn.close();
  }
}

/** Every session of a database, as `<db>#<id>`. */
const sessionsOf = (db: string) =>
  query(db, "SELECT id FROM session ORDER BY id").map((row) => sessionLocator(db, String(row.id)));

const databases = () =>
  readdirSync(FIXTURES).filter((name) => name.endsWith(".opencode.db")).sort().map((name) =>
    join(FIXTURES, name)
  );

/** A private copy of a captured database. */
function privateCopy(name: string): string {
  const db = join(tempDir(), "opencode.db");
  copyFileSync(join(FIXTURES, name), db);
  return db;
}

/** A private copy of exec-tools, and the locator of its session that called tools. */
function toolsCopy(): { db: string; locator: string; id: string } {
  const db = privateCopy("exec-tools.opencode.db");
  const [row] = query(db, "SELECT session_id FROM part WHERE json_extract(data, '$.type') = 'tool' LIMIT 1");
  const id = String(row!.session_id);
  return { db, locator: sessionLocator(db, id), id };
}

test("a streamed OpenCode session is the held session, for every session of every opencode.db OpenCode wrote", async () => {
  const locators = databases().flatMap(sessionsOf);
  assert.ok(locators.length >= 10, `only ${locators.length} sessions found`);
  for (const locator of locators) {
    await assertStreamedAsHeld(
      locator,
      await openOpenCodeSession(locator, STREAM_ALL),
      await readOpenCodeSession(locator),
    );
  }
});

test("a streamed session with a pending revert cutting a message is the held session", async () => {
  const db = privateCopy("tools-subagent.opencode.db");
  // Every message of two parts or more, cut at its second part, and every message as a whole.
  const cuts = query(
    db,
    "SELECT p.session_id AS session, p.message_id AS message, min(p.id) AS first FROM part p " +
      "GROUP BY p.message_id HAVING count(*) >= 2",
  );
  assert.ok(cuts.length >= 3, `only ${cuts.length} messages of several parts`);
  for (const cut of cuts) {
    const [second] = query(
      db,
      "SELECT id FROM part WHERE message_id = ? AND id > ? ORDER BY id LIMIT 1",
      String(cut.message),
      String(cut.first),
    );
    for (const revert of [{ messageID: cut.message, partID: second!.id }, { messageID: cut.message }]) {
      changeDatabase(
        db,
        "UPDATE session SET revert = ? WHERE id = ?",
        JSON.stringify(revert),
        String(cut.session),
      );
      const locator = sessionLocator(db, String(cut.session));
      const held = await readOpenCodeSession(locator);
      assert.ok(held.threads.some((t) => t.kind === "abandoned-branch"), JSON.stringify(revert));
      await assertStreamedAsHeld(
        JSON.stringify(revert),
        await openOpenCodeSession(locator, STREAM_ALL),
        held,
      );
    }
  }
});

test("a session whose rows are under the streaming size is held, and so is an exported file", async () => {
  const [locator] = sessionsOf(join(FIXTURES, "tools-subagent.opencode.db"));
  assert.ok(Array.isArray((await openOpenCodeSession(locator!)).messages));
  assert.ok(
    Array.isArray((await openOpenCodeSession(join(FIXTURES, "exec-tools.export.json"), STREAM_ALL)).messages),
  );
});

test("a streamed session whose rows are removed between passes is bad input naming the database", async () => {
  const { db, locator } = toolsCopy();
  await assertChangeRefused(
    db,
    await openOpenCodeSession(locator, STREAM_ALL),
    () => changeDatabase(db, "DELETE FROM part WHERE json_extract(data, '$.type') = 'tool'"),
  );
});

test("rows OpenCode adds after a streamed session was opened are not part of it", async () => {
  const { db, locator, id } = toolsCopy();
  const held = await readOpenCodeSession(locator);
  const opened = await openOpenCodeSession(locator, STREAM_ALL);
  const [last] = query(
    db,
    "SELECT id, session_id FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT 1",
    id,
  );
  const at = Date.parse(held.meta.updatedAt!) + 1;
  changeDatabase(
    db,
    "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
    "prt_zzzzzzzzzzzzAddedLater0001",
    String(last!.id),
    String(last!.session_id),
    at,
    at,
    '{"type":"text","text":"added later"}',
  );
  changeDatabase(
    db,
    "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
    "msg_zzzzzzzzzzzzAddedLater0001",
    String(last!.session_id),
    at,
    at,
    JSON.stringify({ role: "user", time: { created: at }, agent: "build" }),
  );
  assert.deepEqual(await holdSession(opened), held);
});

test("a streamed OpenCode session's threads kept apart are in files, not held, until the session is released", async () => {
  let apart = 0;
  for (const locator of databases().flatMap(sessionsOf)) {
    const held = await readOpenCodeSession(locator);
    apart += assertSpilledApart(locator, await openOpenCodeSession(locator, STREAM_ALL), held);
  }
  assert.ok(apart >= 2, `only ${apart} threads kept apart in the captured sessions`);
});

/** Every message of `index` as the splits read it (a parent is read of an assistant's only). */
function told(index: MessageIndex): unknown[] {
  return Array.from({ length: index.length }, (_, i) => ({
    id: index.id(i),
    is: index.is(i, index.id(i)) && !index.is(i, `${index.id(i)}x`),
    time: index.time(i),
    role: index.role(i),
    parent: index.role(i) === ASSISTANT ? index.parent(i) : undefined,
    summary: index.summary(i),
    finished: index.finished(i),
    failed: index.failed(i),
    parts: index.parts(i),
  }));
}

/** A session tree's messages, each session's told (see told), subagents after. */
function toldTree<M>(tree: SessionTree<M>, index: (m: M) => MessageIndex): unknown[] {
  return [told(index(tree.messages)), ...tree.subagents.map((child) => toldTree(child, index))];
}

test("a streamed session's index keeps its messages in columns and tells each as the held messages do", () => {
  for (const locator of databases().flatMap(sessionsOf)) {
    const [file, id] = locator.split("#") as [string, string];
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const indexed = indexedSession(db, file, id);
      assert.ok(indexed.messages instanceof IndexedMessages, locator);
      assert.deepEqual(
        toldTree(indexed, (m) => m),
        toldTree(storedSession(db, file, id), heldIndex),
        locator,
      );
      const counts = (tree: SessionTree<IndexedMessages>): number[] => [
        ...Array.from({ length: tree.messages.length }, (_, i) => tree.messages.partCount(i)),
        ...tree.subagents.flatMap(counts),
      ];
      const held = (tree: SessionTree<{ parts: unknown[] }[]>): number[] => [
        ...tree.messages.map((m) => m.parts.length),
        ...tree.subagents.flatMap(held),
      ];
      assert.deepEqual(counts(indexed), held(storedSession(db, file, id)), `${locator}: part counts`);
    } finally {
      db.close();
    }
  }
});

test("a streamed session whose compaction keeps a tail, and whose last prompts are queued, is the held session", async () => {
  const { db, locator, id } = toolsCopy();
  const tail = String(
    query(
      db,
      "SELECT id FROM message WHERE session_id = ? ORDER BY time_created, id LIMIT 1 OFFSET 4",
      id,
    )[0]!
      .id,
  );
  let at = Number(query(db, "SELECT max(time_created) AS t FROM message WHERE session_id = ?", id)[0]!.t);
  const message = (mid: string, data: Record<string, unknown>, parts: Record<string, unknown>[]) => {
    at++;
    changeDatabase(
      db,
      "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
      mid,
      id,
      at,
      at,
      JSON.stringify({ ...data, time: { created: at } }),
    );
    parts.forEach((part, n) =>
      changeDatabase(
        db,
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
        `prt_${mid}_${n}`,
        mid,
        id,
        at,
        at,
        JSON.stringify(part),
      )
    );
  };
  const text = (words: string) => ({ type: "text", text: words });
  // /compact keeping the messages from `tail` on, which OpenCode sends after the summary.
  message("msg_zz01request", { role: "user", agent: "build" }, [{
    type: "compaction",
    auto: false,
    tail_start_id: tail,
  }]);
  message("msg_zz02summary", {
    role: "assistant",
    parentID: "msg_zz01request",
    summary: true,
    finish: "stop",
  }, [text("The summary.")]);
  // A prompt answered by a reply stored before it, then two prompts no reply answers: those are queued.
  message("msg_zz03reply", { role: "assistant", parentID: "msg_zz04answered", finish: "stop" }, [
    text("On it."),
  ]);
  message("msg_zz04answered", { role: "user", agent: "build" }, [text("answered")]);
  message("msg_zz05queued", { role: "user", agent: "build" }, [text("first queued")]);
  message("msg_zz06queued", { role: "user", agent: "build" }, [text("second queued")]);
  const held = await readOpenCodeSession(locator);
  assert.deepEqual(held.pending.queuedInput.map((q) => q.text), ["first queued", "second queued"]);
  assert.deepEqual(held.messages.slice(0, 3).map((m) => m.uid), [
    "msg_zz01request:context",
    "msg_zz02summary",
    tail,
  ]);
  assert.ok(held.threads.some((t) => t.kind === "compacted"));
  await assertStreamedAsHeld(locator, await openOpenCodeSession(locator, STREAM_ALL), held);
});
