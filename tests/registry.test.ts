/**
 * The alias registry's own rules, without Python: where the file is, what a scope is, what an alias may be,
 * rename's two distinct failures, forget dropping an emptied scope, undoing a bind, the replaceable default.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { homedir } from "node:os";
import process from "node:process";
import {
  AliasExistsError,
  AliasNotFoundError,
  defaultSessionRegistry,
  SessionRegistry,
  setDefaultSessionRegistry,
} from "../lib/registry/registry.ts";
import { normalizeScope } from "../lib/registry/scope.ts";
import { builtinRegistry, registryKinds } from "../lib/harnesses/registry.ts";
import { InputError } from "../lib/errors.ts";
import { tempDir } from "./helpers/tmp.ts";

test("the registry file: an explicit path, else LAZYBRIDGE_SESSIONS_FILE when non-empty, else ~/.lazybridge, read on every call", () => {
  const env: NodeJS.ProcessEnv = {};
  const registry = new SessionRegistry({ env, home: "/home/u" });
  assert.equal(registry.path, "/home/u/.lazybridge/sessions.json");
  env.LAZYBRIDGE_SESSIONS_FILE = "";
  assert.equal(registry.path, "/home/u/.lazybridge/sessions.json");
  env.LAZYBRIDGE_SESSIONS_FILE = "/elsewhere/s.json";
  assert.equal(registry.path, "/elsewhere/s.json");
  assert.equal(new SessionRegistry({ env, path: "/given.json" }).path, "/given.json");
});

test("a scope is the resolved absolute folder: symlinks followed, a missing tail appended, no trailing slash, ~ literal", () => {
  const dir = tempDir("sb-scope-");
  mkdirSync(join(dir, "real"));
  symlinkSync(join(dir, "real"), join(dir, "link"));
  assert.equal(normalizeScope(join(dir, "link")), join(dir, "real"));
  assert.equal(normalizeScope(`${join(dir, "link")}/`), join(dir, "real"));
  assert.equal(
    normalizeScope(join(dir, "link", "x", "..", "new", "deeper")),
    join(dir, "real", "new", "deeper"),
  );
  assert.equal(normalizeScope("link/./a", dir), join(dir, "real", "a"));
  assert.equal(normalizeScope("~", dir), join(dir, "~"));
  assert.throws(() => normalizeScope("  "), InputError);
});

test("an alias starts with a letter and has at most 64 letters, digits, _ . or -", async () => {
  const registry = new SessionRegistry({ path: join(tempDir("sb-registry-"), "s.json") });
  for (const ok of ["a", "Reviewer_2.v-1", `a${"b".repeat(63)}`]) {
    await registry.bind("codex", "/p", ok, "id");
  }
  for (const bad of ["", "1a", "_a", "a b", `a${"b".repeat(64)}`, "abc\n", "é"]) {
    await assert.rejects(registry.bind("codex", "/p", bad, "id"), InputError, JSON.stringify(bad));
  }
  await assert.rejects(registry.bind("codex", "/p", "ok", " \u3000"), /native_id must be a non-empty string/);
});

test("a registry given the registered kinds binds those only; without them, any kind spelled as a lower-case word", async () => {
  const path = join(tempDir("sb-registry-"), "s.json");
  const registered = new SessionRegistry({ path, kinds: registryKinds(builtinRegistry) });
  await registered.bind("hermes", "/p", "ok", "id");
  await assert.rejects(
    registered.bind("aider", "/p", "ok", "id"),
    /kind must be one of claude, codex, hermes, gemini/,
  );
  // A harness added later files its own kind: no list here changes for it.
  const open = new SessionRegistry({ path });
  await open.bind("aider", "/p", "ok", "id");
  assert.equal(await registered.resolve("hermes", "/p", "ok"), "id");
  assert.deepEqual((await open.entries()).map((e) => e.kind), ["aider", "hermes"]);
  for (const bad of ["", "Gemini", "1x", "a b"]) {
    await assert.rejects(
      open.bind(bad, "/p", "ok", "id"),
      /kind must be a lower-case word/,
      JSON.stringify(bad),
    );
  }
});

test("bind keeps created_at and overwrites model and effort; rename's missing source and taken target are distinct errors", async () => {
  const path = join(tempDir("sb-registry-"), "s.json");
  let now = new Date("2026-12-01T08:00:00.900Z");
  const registry = new SessionRegistry({ path, clock: () => now });
  await registry.bind("claude", "/p", "a", "1", { model: "opus", effort: "high" });
  now = new Date("2026-12-01T09:30:00Z");
  await registry.bind("claude", "/p", "a", "2");
  const [entry] = await registry.entries();
  assert.deepEqual(entry, {
    kind: "claude",
    scope: "/p",
    name: "a",
    native_id: "2",
    model: null,
    effort: null,
    created_at: "2026-12-01T08:00:00+00:00",
    updated_at: "2026-12-01T09:30:00+00:00",
  });
  await registry.bind("claude", "/p", "b", "3");
  await assert.rejects(registry.rename("claude", "/p", "zzz", "c"), AliasNotFoundError);
  await assert.rejects(registry.rename("claude", "/p", "a", "b"), AliasExistsError);
  await registry.rename("claude", "/p", "a", "c");
  assert.equal(await registry.resolve("claude", "/p", "c"), "2");
  assert.equal(await registry.resolve("claude", "/p", "a"), undefined);
});

test("forget says whether the alias existed and drops a scope it empties", async () => {
  const path = join(tempDir("sb-registry-"), "s.json");
  const registry = new SessionRegistry({ path });
  await registry.bind("codex", "/p", "a", "1");
  await registry.bind("codex", "/q", "b", "2");
  assert.equal(await registry.forget("codex", "/p", "a"), true);
  assert.equal(await registry.forget("codex", "/p", "a"), false);
  const document = JSON.parse(readFileSync(path, "utf8"));
  assert.deepEqual(Object.keys(document.sessions.codex), ["/q"]);
});

test("undoing a bind puts the entry back as it was, unless someone re-pointed it meanwhile", async () => {
  const path = join(tempDir("sb-registry-"), "s.json");
  const registry = new SessionRegistry({ path });
  await registry.bind("codex", "/p", "a", "old", { model: "m" });
  const before = readFileSync(path, "utf8");
  const previous = await registry.stored("codex", "/p", "a");
  await registry.bind("codex", "/p", "a", "new");
  assert.equal(await registry.restore("codex", "/p", "a", previous, { native_id: "new" }), true);
  assert.equal(readFileSync(path, "utf8"), before);
  await registry.bind("codex", "/p", "fresh", "x");
  await registry.bind("codex", "/p", "fresh", "someone-else");
  assert.equal(await registry.restore("codex", "/p", "fresh", undefined, { native_id: "x" }), false);
  assert.equal(await registry.resolve("codex", "/p", "fresh"), "someone-else");
  assert.equal(
    await registry.restore("codex", "/p", "fresh", undefined, { native_id: "someone-else" }),
    true,
  );
  assert.equal(await registry.resolve("codex", "/p", "fresh"), undefined);
});

test("the process-wide default registry can be replaced, and the old one is handed back", () => {
  const mine = new SessionRegistry({ path: "/tmp/x.json" });
  const old = setDefaultSessionRegistry(mine);
  try {
    assert.equal(defaultSessionRegistry(), mine);
    assert.equal(setDefaultSessionRegistry(undefined), mine);
    assert.notEqual(defaultSessionRegistry(), mine);
  } finally {
    setDefaultSessionRegistry(old);
  }
});

test("defaultSessionRegistry() with no arguments follows LAZYBRIDGE_SESSIONS_FILE as LazyBridge's does, read again on every call", async () => {
  const dir = tempDir("sb-registry-");
  const [first, second] = [join(dir, "first.json"), join(dir, "second.json")];
  const old = setDefaultSessionRegistry(undefined);
  const before = process.env.LAZYBRIDGE_SESSIONS_FILE;
  try {
    process.env.LAZYBRIDGE_SESSIONS_FILE = first;
    const registry = defaultSessionRegistry();
    // Checked before writing: a default that ignored the variable would write to the user's own file.
    assert.equal(registry.path, first);
    await registry.bind("codex", "/p", "a", "1");
    assert.equal(await new SessionRegistry({ path: first }).resolve("codex", "/p", "a"), "1");
    // The same default, the variable changed since: the next call goes to the file it names now.
    process.env.LAZYBRIDGE_SESSIONS_FILE = second;
    assert.equal(defaultSessionRegistry().path, second);
    // Empty is unset, as LazyBridge takes it: the user's own file.
    process.env.LAZYBRIDGE_SESSIONS_FILE = "";
    assert.equal(registry.path, join(homedir(), ".lazybridge", "sessions.json"));
  } finally {
    if (before === undefined) delete process.env.LAZYBRIDGE_SESSIONS_FILE;
    else process.env.LAZYBRIDGE_SESSIONS_FILE = before;
    setDefaultSessionRegistry(old);
  }
});

test("a read takes no lock: a registry is readable while another process holds its lock", async () => {
  const dir = tempDir("sb-registry-");
  const path = join(dir, "s.json");
  await new SessionRegistry({ path }).bind("codex", "/p", "a", "1");
  writeFileSync(`${path}.lock`, "1");
  assert.equal(await new SessionRegistry({ path }).resolve("codex", "/p", "a"), "1");
  assert.ok(existsSync(`${path}.lock`));
});

test("on Windows a scope is LazyBridge's: backslashes are slashes, a drive letter starts a full path, all lower-cased", () => {
  // What Path(s).resolve().as_posix().lower() gives there (LazyBridge's normalize_scope on Windows).
  assert.equal(normalizeScope("C:\\Work\\Proj\\", "C:\\", "win32"), "c:/work/proj");
  assert.equal(normalizeScope("c:/work/proj", "D:\\elsewhere", "win32"), "c:/work/proj");
  assert.equal(normalizeScope("sub\\dir\\..\\other", "C:\\Work", "win32"), "c:/work/sub/other");
  assert.equal(normalizeScope("C:\\", "D:\\", "win32"), "c:/");
});
