/**
 * The alias registry against the real LazyBridge 1.8.3 (its SessionRegistry, in a private venv): the same
 * operations write the same bytes, each reads what the other wrote identically, a damaged file is moved aside
 * the same way, 8 writers of both tools at once lose nothing, and a crashed writer's lock is taken over.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../lib/runtime.ts";
import { AliasNotFoundError, type RegistryKind, SessionRegistry } from "../lib/registry/registry.ts";
import {
  lazybridgeOps,
  lazybridgeOpsAsync,
  lazybridgePython,
  type RegistryOp,
} from "./helpers/lazybridge.ts";
import { tempDir } from "./helpers/tmp.ts";

const setup = lazybridgePython();
const skip = "skip" in setup ? setup.skip : false;
const python = "python" in setup ? setup.python : "";
const NOW = "2026-12-01T09:00:00+00:00";
const BINDER = fileURLToPath(new URL("./helpers/registry-binder.ts", import.meta.url));

/** A hand-edited registry with everything a rewrite must keep: unknown kinds and keys, odd numbers, Unicode. */
function seedText(scope: string): string {
  return `{"version": 7, "note": "kept \\u00e9 \\ud834\\udd1e \\u007f", "__proto__": {"x": [1, 2.50, 1E16]},
  "sessions": {
    "claude": {${JSON.stringify(scope)}: {"reviewer": {"native_id": "old-claude", "model": null,
      "effort": null, "created_at": "2020-01-01T00:00:00+00:00", "updated_at": "2020-01-01T00:00:00+00:00",
      "pinned": true}}},
    "hermes": {"/elsewhere": {"notes": {"native_id": "20261201_090000_abcdef", "extra": 123456789012345678901234567890,
      "ratio": 1.5e-7, "zero": -0.0, "odd": [NaN, Infinity, -Infinity, 0.0001, 100000000000000000000.0]}}},
    "future-kind": {"/x": {}}
  }}`;
}

function ourOps(registry: SessionRegistry, ops: RegistryOp[]): Promise<unknown[]> {
  const results: unknown[] = [];
  return (async () => {
    for (const [op, ...a] of ops) {
      try {
        const [kind, scope] = [a[0] as RegistryKind, a[1] as string];
        switch (op) {
          case "resolve":
            results.push((await registry.resolve(kind, scope, a[2] as string)) ?? null);
            break;
          case "bind":
            await registry.bind(kind, scope, a[2] as string, a[3] as string, {
              model: a[4] as string | null,
              effort: a[5] as string | null,
            });
            results.push(null);
            break;
          case "rename":
            await registry.rename(kind, scope, a[2] as string, a[3] as string);
            results.push(null);
            break;
          case "forget":
            results.push(await registry.forget(kind, scope, a[2] as string));
            break;
          case "entries":
            results.push(
              await registry.entries({
                ...(a[0] !== null ? { kind } : {}),
                ...(a[1] !== null ? { scope } : {}),
              }),
            );
            break;
        }
      } catch (error) {
        const name = error instanceof AliasNotFoundError ? "KeyError" : "ValueError";
        results.push({ error: name, message: (error as Error).message });
      }
    }
    return results;
  })();
}

/** Python's str(KeyError(msg)) quotes the message; the words are what must agree. */
function unquoted(results: unknown[]): unknown[] {
  return results.map((r) =>
    r !== null && typeof r === "object" && "error" in r
      ? {
        ...r,
        message: String((r as unknown as { message: string }).message).replace(/^"(.*)"$|^'(.*)'$/, "$1$2"),
      }
      : r
  );
}

test("the same operations on the same file write the same bytes as LazyBridge, unknown kinds and keys kept", {
  skip,
}, async () => {
  const dir = tempDir("sb-registry-");
  const project = join(dir, "projet café ☕");
  mkdirSync(project);
  symlinkSync(project, join(dir, "link"));
  const scope = project;
  const viaLink = join(dir, "link");
  const missing = join(dir, "link", "sub", "..", "not-yet", "deeper");
  const ops: RegistryOp[] = [
    ["bind", "claude", viaLink, "reviewer", "new-claude", "opus-ü", "high"],
    ["bind", "codex", scope, "migration", "019a-codex", null, null],
    ["bind", "codex", missing, "later", "019b", "gpt-5.5", "low"],
    ["rename", "codex", scope, "migration", "migration.v2"],
    ["rename", "codex", scope, "nobody", "x"],
    ["rename", "codex", scope, "migration.v2", "migration.v2"],
    ["bind", "codex", scope, "taken", "t", null, null],
    ["rename", "codex", scope, "taken", "migration.v2"],
    ["forget", "codex", missing, "later"],
    ["forget", "codex", missing, "later"],
    ["resolve", "claude", viaLink, "reviewer"],
    ["resolve", "codex", scope, "nobody"],
    ["entries", null, null],
    ["entries", "codex", scope],
  ];
  const theirs = join(dir, "theirs.json");
  const ours = join(dir, "ours.json");
  writeFileSync(theirs, seedText(scope));
  writeFileSync(ours, seedText(scope));
  const python_ = lazybridgeOps(python, theirs, ops, { now: NOW });
  const registry = new SessionRegistry({ path: ours, clock: () => new Date(NOW) });
  const mine = await ourOps(registry, ops);
  assert.equal(readFileSync(ours, "utf8"), readFileSync(theirs, "utf8"));
  assert.deepEqual(unquoted(mine), unquoted(python_.results));
  assert.deepEqual(python_.warnings, []);
  // The kept values, to the byte: a big integer, Python's float reprs, and escapes.
  const text = readFileSync(ours, "utf8");
  for (
    const kept of [
      "123456789012345678901234567890",
      '"ratio": 1.5e-07',
      '"zero": -0.0',
      "NaN",
      "-Infinity",
      "0.0001",
      "1e+20",
      "1e+16",
      "\\ud834\\udd1e \\u007f",
      '"future-kind": {\n      "/x": {}\n    }',
      '"created_at": "2020-01-01T00:00:00+00:00"',
      '"model": "opus-\\u00fc"',
    ]
  ) assert.ok(text.includes(kept), `${kept} in\n${text}`);
  // A rebind writes the five fields afresh in both tools: an entry's own unknown keys go with it.
  assert.ok(!text.includes('"pinned"'));
  assert.ok(text.endsWith("}\n") && text.startsWith('{\n  "__proto__"'));
});

test("a registry written by either tool is read identically by the other", { skip }, async () => {
  const dir = tempDir("sb-registry-");
  const scope = join(dir, "répertoire");
  mkdirSync(scope);
  const byThem = join(dir, "by-lazybridge.json");
  const byUs = join(dir, "by-us.json");
  const writes: RegistryOp[] = [
    ["bind", "claude", scope, "reviewer", "c-1", "sonnet", "medium"],
    ["bind", "codex", scope, "reviewer", "x-1", null, "high"],
    ["bind", "hermes", "/tmp/else", "Notes_1", "20261201_090000_abcdef", "fake-model-1", null],
  ];
  lazybridgeOps(python, byThem, writes);
  await ourOps(new SessionRegistry({ path: byUs }), writes);
  for (const file of [byThem, byUs]) {
    const reads: RegistryOp[] = [["entries", null, null], ["resolve", "codex", scope, "reviewer"]];
    const theirs = lazybridgeOps(python, file, reads);
    const ours = await ourOps(new SessionRegistry({ path: file }), reads);
    assert.deepEqual(ours, theirs.results, file);
    // LazyBridge refuses to write kind `hermes` (it only keeps it); we write it.
    assert.equal((ours[0] as unknown[]).length, file === byUs ? 3 : 2);
  }
});

test(
  "a damaged registry is moved aside exactly as LazyBridge moves it, never overwritten",
  { skip },
  async () => {
    const cases: [string, string][] = [
      ["invalid JSON", '{"sessions": {'],
      ["an entry without native_id", '{"version": 1, "sessions": {"codex": {"/p": {"a": {"model": "m"}}}}}'],
      ["a list", "[]"],
      ["a byte-order mark", '\ufeff{"sessions": {}}'],
    ];
    for (const [what, content] of cases) {
      const dir = tempDir("sb-registry-");
      for (const who of ["theirs", "ours"]) mkdirSync(join(dir, who));
      const files = {
        theirs: join(dir, "theirs", "sessions.json"),
        ours: join(dir, "ours", "sessions.json"),
      };
      // Twice: the second time `.corrupt` is taken and the copy gets a timestamp suffix.
      for (let round = 0; round < 2; round++) {
        writeFileSync(files.theirs, content);
        writeFileSync(files.ours, content);
        const theirs = lazybridgeOps(python, files.theirs, [["resolve", "codex", "/p", "a"]]);
        const warnings: string[] = [];
        const ours = await new SessionRegistry({ path: files.ours, warn: (m) => warnings.push(m) })
          .resolve("codex", "/p", "a");
        assert.equal(ours ?? null, theirs.results[0], what);
        assert.equal(warnings.length, 1, what);
        assert.equal(theirs.warnings.length, 1, what);
        const [ourWarning, theirWarning] = [warnings[0], theirs.warnings[0]].map((w, i) =>
          (w as string).replaceAll(join(dir, i === 0 ? "ours" : "theirs"), "<dir>").replace(
            /-\d{8}T\d{12}Z/,
            "-<stamp>",
          )
        );
        assert.equal(ourWarning, theirWarning, what);
      }
      for (const who of ["theirs", "ours"]) {
        const names = readdirSync(join(dir, who)).sort();
        assert.equal(names.length, 2, `${what}: ${names}`);
        assert.equal(names[0], "sessions.json.corrupt");
        assert.match(names[1] as string, /^sessions\.json\.corrupt-\d{8}T\d{6}\d{6}Z$/);
        assert.equal(readFileSync(join(dir, who, "sessions.json.corrupt"), "utf8"), content);
      }
    }
  },
);

test("an empty or whitespace-only registry is empty for both, and left in place", { skip }, async () => {
  const dir = tempDir("sb-registry-");
  const file = join(dir, "sessions.json");
  writeFileSync(file, " \n\t\u3000");
  assert.deepEqual(lazybridgeOps(python, file, [["entries", null, null]]).results, [[]]);
  assert.deepEqual(await new SessionRegistry({ path: file }).entries(), []);
  assert.deepEqual(readdirSync(dir), ["sessions.json"]);
});

test("8 writers at once, 4 of ours and 4 of LazyBridge's, 100 binds each: 800 of 800 kept, valid for both", {
  skip,
}, async () => {
  const dir = tempDir("sb-registry-");
  const file = join(dir, "sessions.json");
  const [bin, ...pre] = scriptArgv(BINDER);
  const ours = [0, 1, 2, 3].map((w) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(bin as string, [...pre, file, "codex", dir, `ours${w}-`, "100", `o${w}`], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`writer ${w}: ${err}`))));
    })
  );
  const theirs = [0, 1, 2, 3].map((w) =>
    lazybridgeOpsAsync(python, file, [["bind-many", "claude", dir, `theirs${w}-`, 100, `t${w}`]])
  );
  await Promise.all([...ours, ...theirs]);
  const read = lazybridgeOps(python, file, [["entries", null, null]]);
  assert.deepEqual(read.warnings, []);
  assert.equal((read.results[0] as unknown[]).length, 800);
  const mine = await new SessionRegistry({ path: file }).entries();
  assert.equal(mine.length, 800);
  assert.equal(await new SessionRegistry({ path: file }).resolve("claude", dir, "theirs3-99"), "t3-99");
  assert.equal(await new SessionRegistry({ path: file }).resolve("codex", dir, "ours2-42"), "o2-42");
  assert.ok(!existsSync(`${file}.lock`));
  assert.deepEqual(readdirSync(dir), ["sessions.json"]);
});

test(
  "a lock left by a crashed writer over 30 s ago is taken over, by us and by LazyBridge",
  { skip },
  async () => {
    const dir = tempDir("sb-registry-");
    const file = join(dir, "sessions.json");
    const stale = new Date(Date.now() - 31_000);
    writeFileSync(`${file}.lock`, "999999");
    utimesSync(`${file}.lock`, stale, stale);
    await new SessionRegistry({ path: file }).bind("codex", dir, "after-crash", "id-1");
    assert.ok(!existsSync(`${file}.lock`));
    writeFileSync(`${file}.lock`, "999999");
    utimesSync(`${file}.lock`, stale, stale);
    const theirs = lazybridgeOps(python, file, [["bind", "claude", dir, "after-crash", "id-2", null, null]]);
    assert.deepEqual(theirs.results, [null]);
    assert.ok(!existsSync(`${file}.lock`));
    assert.equal((await new SessionRegistry({ path: file }).entries()).length, 2);
  },
);
