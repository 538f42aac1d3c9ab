import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { scriptArgv } from "../lib/runtime.ts";
import { configuredModel } from "../lib/harnesses/hermes/config.ts";
import { pyFloat, pyJson } from "../lib/harnesses/hermes/pyjson.ts";
import { capturedIds, HERMES_VERSIONS, hermesFixture, seedHermesHome, sha256 } from "./helpers/hermes.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();

interface Listed {
  id: string;
  path: string;
  title?: string;
  cwd?: string;
  messages?: number;
}

async function listed(home: string): Promise<Listed[]> {
  const r = await runCliJson(["list", "--from", "hermes", "--hermes-home", home]);
  assert.equal(r.code, 0, r.stderr);
  return r.json.sessions as Listed[];
}

test("list: a compression chain once, under its live tip; every profile; legacy files the db lacks", async () => {
  const home = join(dir, "home");
  seedHermesHome(home, "0.19.0", "compressed");
  seedHermesHome(join(home, "profiles", "coder"), "0.19.0", "titled");
  mkdirSync(join(home, "sessions"));
  const [gateway] = capturedIds("0.14.0", "gateway-legacy");
  copyFileSync(
    hermesFixture("0.14.0", `gateway-legacy/sessions/${gateway}.jsonl`),
    join(home, "sessions", `${gateway}.jsonl`),
  );
  const rows = await listed(home);
  const [, tip] = capturedIds("0.19.0", "compressed");
  const [titled] = capturedIds("0.19.0", "titled");
  assert.deepEqual(rows.map((r) => r.id).sort(), [gateway, tip, titled].sort());
  const byId = new Map(rows.map((r) => [r.id, r]));
  assert.equal(byId.get(tip!)!.title, "Explain how tides form.");
  assert.equal(byId.get(titled!)!.title, "Garden planning notes");
  assert.equal(byId.get(titled!)!.path, `${join(home, "profiles", "coder", "state.db")}#${titled}`);
  assert.equal(byId.get(gateway!)!.path, join(home, "sessions", `${gateway}.jsonl`));
});

test("list: each session's messages are the count Hermes keeps itself, its gateway's session_meta marker included", async () => {
  // Every store real Hermes wrote alone: `foreign` and `open-call-resumed` hold rows another tool inserted,
  // which Hermes's counter never saw.
  for (const version of HERMES_VERSIONS) {
    const scenarios = readdirSync(hermesFixture(version, "")).filter((n) => n.endsWith(".state.db"))
      .map((n) => n.slice(0, -".state.db".length)).filter((n) =>
        !["foreign", "open-call-resumed"].includes(n)
      );
    assert.ok(scenarios.includes("compressed"), `${version}: ${scenarios.join(", ")}`);
    for (const scenario of scenarios) {
      const home = join(dir, "counts", version, scenario);
      const db = new DatabaseSync(seedHermesHome(home, version, scenario), { readOnly: true });
      const counts = new Map(
        (db.prepare("SELECT id, message_count FROM sessions").all() as {
          id: string;
          message_count: number;
        }[])
          .map((r) => [r.id, r.message_count]),
      );
      db.close();
      const rows = await listed(home);
      assert.ok(rows.length > 0, `${version} ${scenario}: nothing listed`);
      for (const r of rows) assert.equal(r.messages, counts.get(r.id), `${version} ${scenario} ${r.id}`);
    }
  }
});

test("reading a state.db another process holds in WAL mode leaves its -wal untouched and sees its rows", async () => {
  const db = join(dir, "live", "state.db");
  mkdirSync(join(dir, "live"));
  copyFileSync(hermesFixture("0.19.0", "tool-call.state.db"), db);
  const held = "20261130_090000_abcdef";
  const [bin, ...pre] = scriptArgv(fileURLToPath(new URL("./helpers/hold-hermes-wal.ts", import.meta.url)));
  const holder = spawn(bin!, [...pre, db, held], { stdio: ["pipe", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
      holder.on("exit", (code) => reject(new Error(`holder exited ${code}`)));
    });
    const before = { wal: await sha256(`${db}-wal`), db: await sha256(db) };
    assert.ok(readFileSync(`${db}-wal`).length > 0, "the new rows are only in the WAL");
    const rows = await listed(join(dir, "live"));
    assert.ok(rows.some((r) => r.id === held), "a read-only reader sees what the WAL holds");
    const shown = await runCliJson(["show", `${db}#${held}`]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual({ wal: await sha256(`${db}-wal`), db: await sha256(db) }, before);
  } finally {
    holder.stdin.end();
    await new Promise((r) => holder.on("close", r));
  }
});

test("config.yaml: the model Hermes routes to, in the shapes hermes setup and people write", () => {
  const cases: [string, { model?: string; provider?: string }][] = [
    ["model: gpt-5 # main\n", { model: "gpt-5" }],
    ['model:\n  provider: custom\n  default: "fake-model-1"\n  base_url: http://x/v1\nother: 1\n', {
      model: "fake-model-1",
      provider: "custom",
    }],
    ["model: {provider: anthropic, default: 'claude-x'}\n", { model: "claude-x", provider: "anthropic" }],
    ["model:\n  model: m2\n", { model: "m2" }],
    ["agent:\n  max_turns: 3\n", {}],
  ];
  for (const [i, [text, expected]] of cases.entries()) {
    const path = join(dir, `config-${i}.yaml`);
    writeFileSync(path, text);
    assert.deepEqual(configuredModel(path), expected, text);
  }
  assert.deepEqual(configuredModel(join(dir, "missing.yaml")), {});
});

test("Python-style JSON: separators, float repr, ASCII escapes, as Hermes's json.dumps writes them", () => {
  assert.equal(pyJson({ a: [1, "é"], b: null }, { ensureAscii: true }), '{"a": [1, "\\u00e9"], "b": null}');
  assert.equal(pyJson({ a: "é" }, { ensureAscii: false }), '{"a": "é"}');
  assert.deepEqual([0, 1795986439.8582847, 1e-5, 12, 1e16].map(pyFloat), [
    "0.0",
    "1795986439.8582847",
    "1e-05",
    "12.0",
    "1e+16",
  ]);
});

test("Python-style JSON of a nested value, written as it is walked: strings kept whole, skipped keys as JSON skips them", () => {
  const call = {
    id: "call_1",
    type: "function",
    function: {
      name: "terminal",
      arguments: JSON.stringify({ cmd: "ls -la, a:b", n: [1, 2.5, null, true] }),
    },
    nested: [[], {}, ['x"y\\z\n']],
    u: "é😀",
    gone: undefined,
  };
  // What Python's json.dumps([call]) prints (call without `gone`).
  assert.equal(
    pyJson([call], { ensureAscii: true }),
    '[{"id": "call_1", "type": "function", "function": {"name": "terminal", "arguments": ' +
      '"{\\"cmd\\":\\"ls -la, a:b\\",\\"n\\":[1,2.5,null,true]}"}, "nested": [[], {}, ["x\\"y\\\\z\\n"]], ' +
      '"u": "\\u00e9\\ud83d\\ude00"}]',
  );
  assert.equal(
    pyJson([undefined, new Date(0)], { ensureAscii: false }),
    '[null, "1970-01-01T00:00:00.000Z"]',
  );
});

test("Python-style JSON quotes a key that needs escapes as json.dumps does, not only the plain column names", () => {
  // A tool's input is a user's JSON: its keys may hold quotes, backslashes, controls, spaces and any letter.
  const input = { plain_key9: 1, "": 2, 'say "hi"': 3, "a\\b": 4, "tab\there": 5, "two words": 6, "clé": 7 };
  // What Python's json.dumps(input) prints, and with ensure_ascii off.
  assert.equal(
    pyJson(input, { ensureAscii: true }),
    '{"plain_key9": 1, "": 2, "say \\"hi\\"": 3, "a\\\\b": 4, "tab\\there": 5, "two words": 6, "cl\\u00e9": 7}',
  );
  assert.equal(pyJson({ "clé": null }, { ensureAscii: false }), '{"clé": null}');
  assert.equal(
    pyJson({ "new\nline": [null] }, { ensureAscii: false, floats: new Set(["x"]), append: [['"a"', "[]"]] }),
    '{"new\\nline": [null], "\\"a\\"": []}',
  );
});
