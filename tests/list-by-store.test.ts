/**
 * The progressive listing of the library (listByStore): one store at a time, each read when the consumer asks
 * for the next (so a screen draws each store before the next holds the thread); each store's sessions newest
 * first, a broken store named apart, and the whole the same sessions as `list`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as api from "../lib/mod.ts";
import { holdingStore, tuiEnv, tuiHomes } from "./helpers/tui-homes.ts";
import { tempDir } from "./helpers/tmp.ts";

const storesOf = (root: string) => {
  const homes = tuiHomes(root, { hostile: true });
  return { homes, where: api.stores({ env: tuiEnv(homes) }) };
};

test("listByStore reads one store at a time in the registry's order, each only when the next is asked for", async () => {
  const { where } = storesOf(tempDir("sb-by-store-"));
  const held = holdingStore("codex");
  const stores = api.listByStore({ ...where, registry: held.registry });
  const first = await stores.next();
  assert.ok(first.value && "sessions" in first.value && first.value.harness === "claude-code");
  assert.equal(first.value.sessions.length, 2);
  assert.equal(held.started.get("codex"), undefined, "the next store is not read until asked for");
  const second = stores.next();
  await new Promise((r) => setImmediate(r));
  assert.equal(held.started.get("codex"), 1);
  assert.equal(held.started.get("hermes"), undefined, "a store still listing: the one after it waits");
  held.release();
  assert.equal((await second).value?.harness, "codex");
  assert.equal((await stores.next()).value?.harness, "hermes");
  assert.equal((await stores.next()).value?.harness, "gemini-cli");
  assert.equal((await stores.next()).value?.harness, "opencode");
  assert.equal((await stores.next()).value?.harness, "copilot-cli");
  assert.equal((await stores.next()).value?.harness, "pi");
  assert.equal((await stores.next()).done, true);
});

test("listByStore gives each store's sessions newest first, and together the very sessions list gives", async () => {
  const { where } = storesOf(tempDir("sb-by-store-"));
  const byStore: api.SessionSummary[] = [];
  for await (const store of api.listByStore(where)) {
    assert.ok("sessions" in store, `${store.harness} listed`);
    const times = store.sessions.map((s) => s.updatedAt ?? "");
    assert.deepEqual(times, [...times].sort().reverse(), `${store.harness} newest first`);
    byStore.push(...store.sessions);
  }
  const listed = await api.list(where);
  const ids = (sessions: readonly api.SessionSummary[]) => sessions.map((s) => `${s.harness} ${s.id}`).sort();
  assert.deepEqual(ids(byStore), ids(listed.sessions));
  assert.equal(byStore.length, 4);
});

test("listByStore names a store that cannot be read and still serves the others; from and cwd narrow it", async () => {
  const { homes, where } = storesOf(tempDir("sb-by-store-"));
  writeFileSync(join(homes.hermes, "state.db"), "not a database");
  const seen = new Map<string, api.StoreListed>();
  for await (const store of api.listByStore(where)) seen.set(store.harness, store);
  const hermes = seen.get("hermes")!;
  assert.ok("broken" in hermes && /hermes/.test(hermes.broken.store), "the broken store is named");
  assert.ok(["claude-code", "codex"].every((h) => "sessions" in seen.get(h)!));

  const only: string[] = [];
  for await (const store of api.listByStore({ ...where, from: "codex", cwd: homes.project })) {
    only.push(store.harness);
    // The fixtures were recorded in /home/user/project, not in this directory.
    assert.ok("sessions" in store && store.sessions.length === 0);
  }
  assert.deepEqual(only, ["codex"]);
});
