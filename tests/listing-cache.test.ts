/**
 * The listing cache (lib/harnesses/listing-cache.ts): each part of a store (a Claude Code transcript, a Hermes
 * store's databases) whose files are unchanged since the last listing is served from session-bridge's own
 * folder instead of read again (cold, a Hermes state.db of a few hundred sessions is thousands of scattered
 * page reads); any change to a part's files reads it again, and the cache is only ever a shortcut: broken,
 * unwritable or abandoned, the listing is still the store's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runCliJson } from "./helpers/cli.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";
import { claudeListingParts } from "../lib/harnesses/claude-code/locate.ts";

interface Listed {
  id: string;
  title?: string;
  messages?: number;
}

interface CacheFile {
  format: number;
  version: string;
  stores: Record<string, Record<string, { sessions: Listed[] }>>;
}

const readCache = (path: string) => JSON.parse(readFileSync(path, "utf8")) as CacheFile;

/** The sessions the cache keeps of `key`, the first part of its first store unless named. */
function cachedSessions(file: CacheFile, key?: string): Listed[] {
  const [parts] = Object.values(file.stores);
  return (key === undefined ? Object.values(parts!)[0]! : parts![key]!).sessions;
}

/** A Hermes home and a bridge home of their own, and a listing of that Hermes store alone. */
function world() {
  const dir = tempDir("listing-cache");
  const hermes = join(dir, "hermes");
  const db = seedHermesHome(hermes, "0.19.0", "titled");
  const bridge = join(dir, "bridge");
  const cacheFile = join(bridge, "cache", "listing.json");
  const list = async () => {
    const r = await runCliJson(["list", "--from", "hermes", "--hermes-home", hermes], {
      SESSION_BRIDGE_HOME: bridge,
    });
    assert.equal(r.code, 0, r.stderr);
    return (r.json.sessions as Listed[]).map(({ id, title, messages }) => ({ id, title, messages }));
  };
  return { dir, hermes, db, bridge, cacheFile, list };
}

test("an unchanged Hermes store is listed from the cache, which its owner alone can read", async () => {
  const w = world();
  const fresh = await w.list();
  assert.ok(fresh.length >= 1);
  assert.equal(statSync(w.cacheFile).mode & 0o777, 0o600);
  // What the cache says is what is listed while the store is unchanged: a title changed in the cache alone
  // shows, so the store was not read.
  const file = readCache(w.cacheFile);
  cachedSessions(file)[0]!.title = "from the cache";
  writeFileSync(w.cacheFile, JSON.stringify(file));
  const cached = await w.list();
  assert.deepEqual(cached.map((s) => s.title), ["from the cache", ...fresh.slice(1).map((s) => s.title)]);
});

test("a Hermes store written since the last listing is read again: a new session, a renamed one", async () => {
  const w = world();
  const before = await w.list();
  const db = new DatabaseSync(w.db);
  try {
    db.prepare("UPDATE sessions SET title = ? WHERE id = ?").run("renamed since", before[0]!.id);
    db.prepare(
      `INSERT INTO sessions (id, source, model, started_at, title) SELECT ?, source, model, started_at + 1, ?
       FROM sessions WHERE id = ?`,
    ).run("20991231_000000_abcdef", "added since", before[0]!.id);
  } finally {
    db.close();
  }
  const after = await w.list();
  assert.deepEqual(
    after.map((s) => s.title).sort(),
    ["added since", "renamed since", ...before.slice(1).map((s) => s.title)].sort(),
  );
});

test("a cache that is unreadable, foreign or cannot be written leaves the listing as the store's", async () => {
  const w = world();
  const want = await w.list();
  writeFileSync(w.cacheFile, "{ not json");
  assert.deepEqual(await w.list(), want);
  assert.equal(readCache(w.cacheFile).format, 3, "written again, whole");
  writeFileSync(w.cacheFile, JSON.stringify({ format: 999, stores: { x: 1 } }));
  assert.deepEqual(await w.list(), want);
  // Another release's cache (it may list differently) is not served, however fresh its stamps.
  const other = readCache(w.cacheFile);
  other.version = "0.0.0-another";
  cachedSessions(other)[0]!.title = "another release's";
  writeFileSync(w.cacheFile, JSON.stringify(other));
  assert.deepEqual(await w.list(), want);
  // A bridge home that cannot be made (under a file, which even root cannot write into): nothing cached,
  // nothing refused.
  const file = join(w.dir, "a-file");
  writeFileSync(file, "");
  const r = await runCliJson(["list", "--from", "hermes", "--hermes-home", w.hermes], {
    SESSION_BRIDGE_HOME: join(file, "bridge"),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((r.json.sessions as Listed[]).map((s) => s.id), want.map((s) => s.id));
});

test("a save killed before its rename leaves a temp file that the next save removes", async () => {
  const w = world();
  await w.list();
  // No process has this pid (above the kernel's limit), as none has a killed save's.
  const abandoned = join(w.bridge, "cache", "listing.json.4999999.tmp");
  writeFileSync(abandoned, "half");
  const db = new DatabaseSync(w.db);
  try {
    db.exec("UPDATE sessions SET title = 'changed'");
  } finally {
    db.close();
  }
  await w.list();
  assert.equal(existsSync(abandoned), false);
});

test("a Claude Code transcript written since the last listing is read again alone; a removed one is gone", async () => {
  const dir = tempDir("listing-cache-claude");
  const claude = join(dir, "claude");
  const written = seedClaudeHome(claude, "plain-text");
  const untouched = seedClaudeHome(claude, "compacted");
  const removed = seedClaudeHome(claude, "edit-tool");
  const bridge = join(dir, "bridge");
  const list = async () => {
    const r = await runCliJson(["list", "--from", "claude", "--claude-home", claude], {
      SESSION_BRIDGE_HOME: bridge,
    });
    assert.equal(r.code, 0, r.stderr);
    return new Map((r.json.sessions as Listed[]).map(({ id, title }) => [id, title]));
  };
  const fresh = await list();
  assert.deepEqual([...fresh.keys()].sort(), [written.id, untouched.id, removed.id].sort());
  // What the cache says of each transcript is what is listed while that transcript is unchanged.
  const cacheFile = join(bridge, "cache", "listing.json");
  const file = readCache(cacheFile);
  for (const { path } of [written, untouched]) cachedSessions(file, path)[0]!.title = "from the cache";
  writeFileSync(cacheFile, JSON.stringify(file));
  assert.deepEqual(Object.fromEntries(await list()), {
    [written.id]: "from the cache",
    [untouched.id]: "from the cache",
    [removed.id]: fresh.get(removed.id),
  });
  // A rename appends a title record: that transcript's stamp changes and it alone is read again.
  const record = { type: "custom-title", customTitle: "renamed since", sessionId: written.id };
  appendFileSync(written.path, `${JSON.stringify(record)}\n`);
  rmSync(removed.path);
  const after = await list();
  assert.deepEqual(Object.fromEntries(after), {
    [written.id]: "renamed since",
    [untouched.id]: "from the cache",
  });
  assert.deepEqual(
    Object.keys(Object.values(readCache(cacheFile).stores)[0]!).sort(),
    [written.path, untouched.path].sort(),
  );
});

test("a Claude Code transcript removed between the folder's walk and its reading lists no row, not a broken store", async () => {
  const claude = join(tempDir("listing-vanished"), "claude");
  const gone = seedClaudeHome(claude, "plain-text");
  const kept = seedClaudeHome(claude, "compacted");
  const parts = claudeListingParts(claude);
  rmSync(gone.path);
  const rows = await Promise.all(parts.map((part) => part.list()));
  assert.deepEqual(rows.flat().map((s) => s.id), [kept.id]);
});
