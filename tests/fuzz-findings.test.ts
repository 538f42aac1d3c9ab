/**
 * Reader bugs the fuzz campaign (campaigns/fuzz.ts) found, each on the mutant it found (trimmed to a tiny
 * fixture in tests/fixtures/fuzz/) or on a real store damaged the same way.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import * as api from "../lib/mod.ts";
import { nestsDeeperThan } from "../lib/io/json.ts";
import { tempDir } from "./helpers/tmp.ts";

const FUZZ_FIXTURES = fileURLToPath(new URL("./fixtures/fuzz/", import.meta.url));
const now = new Date("2026-12-01T06:00:00Z");

/** Every registered harness: each finding's session must convert to all of them. */
const NAMES = api.builtinRegistry.harnesses.map((h) => h.name);

function world() {
  const root = tempDir("sb-fuzz-found-");
  return {
    root,
    homes: Object.fromEntries(NAMES.map((name) => [name, join(root, name)])),
    bridgeHome: join(root, "bridge"),
  };
}

async function convertsToEveryHarness(
  where: ReturnType<typeof world>,
  session: api.Session,
): Promise<string[]> {
  const converted: string[] = [];
  for (const to of NAMES) {
    const done = await api.convert({
      ...where,
      source: { session },
      to,
      output: join(where.root, `converted-${to}`),
      now,
    });
    converted.push(done.target.harness);
  }
  return converted;
}

test("a Hermes export whose model is not a string reads without a model, reports the drift and converts to every harness", async () => {
  // Found as seed 1 mutant 838: `"model": [null]` in a `hermes sessions export` line.
  const where = world();
  const { session } = await api.load({
    ...where,
    ref: join(FUZZ_FIXTURES, "hermes-export-model-not-a-string.jsonl"),
  });
  assert.deepEqual(session.meta.models, []);
  assert.deepEqual(session.messages.map((m) => [m.role, m.model]), [["user", undefined], [
    "assistant",
    undefined,
  ]]);
  assert.deepEqual(session.drift.map((d) => d.problem), ["unexpected shape at /model: must be string,null"]);
  assert.deepEqual(await convertsToEveryHarness(where, session), NAMES);
});

test("a Hermes state.db row with blobs for its model and title and text for its token counts reads without them", async () => {
  const where = world();
  mkdirSync(where.homes.hermes!, { recursive: true });
  const db = join(where.homes.hermes!, "state.db");
  copyFileSync(fileURLToPath(new URL("../fixtures/hermes/0.19.0/text-turns.state.db", import.meta.url)), db);
  const conn = new DatabaseSync(db);
  conn.exec("UPDATE sessions SET model = x'ff00', input_tokens = 'many', title = x'01'");
  conn.close();
  const [listed] = (await api.list({ ...where, from: "hermes" })).sessions;
  const { session } = await api.load({ ...where, ref: listed!.path });
  assert.deepEqual(session.meta.models, []);
  assert.equal(session.meta.usage, undefined);
  assert.equal(typeof session.meta.title, "string");
  assert.deepEqual(await convertsToEveryHarness(where, session), NAMES);
});

test("a Hermes row whose tool_calls list holds something that is no call copies to Hermes with the entry skipped for naming", async () => {
  // Found as seed 2026 mutant 2887: `"tool_calls": "[null]"` on an assistant row.
  const where = world();
  const { session } = await api.load({
    ...where,
    ref: join(FUZZ_FIXTURES, "hermes-tool-calls-holding-null.json"),
  });
  // Both rows were compacted in place: kept apart from the live thread.
  assert.deepEqual(session.threads.flatMap((t) => t.messages.map((m) => m.role)), ["user", "assistant"]);
  const done = await api.convert({
    ...where,
    source: { session },
    to: "hermes",
    output: join(where.root, "copied.jsonl"),
    cwd: "/home/user/project",
    now,
  });
  assert.equal(done.target.harness, "hermes");
});

const CLAUDE_FIXTURE = fileURLToPath(
  new URL("../fixtures/claude-code/2.1.328/interactive.jsonl", import.meta.url),
);
const CODEX_FIXTURE = fileURLToPath(new URL("../fixtures/codex/0.169.0/tool-call.jsonl", import.meta.url));

test("a transcript that names no session converts to its own harness under a fresh id, not a refusal of its file name", async () => {
  // Found as 1,012 of 10,000 mutants (seed 2026): a file without `sessionId` is read under its file name, and
  // keeping that name as the id made convert refuse `invalid session id "notes"`, an id nobody typed.
  const where = world();
  const path = join(where.root, "notes.jsonl");
  const lines = readFileSync(CLAUDE_FIXTURE, "utf8").replace(/,"sessionId":"[^"]*"/g, "")
    .replace(/"sessionId":"[^"]*",/g, "");
  writeFileSync(path, lines);
  const { session } = await api.load({ ...where, ref: path, from: "claude-code" });
  assert.equal(session.meta.id, "notes");
  const done = await api.convert({
    ...where,
    source: { session },
    to: "claude-code",
    output: join(where.root, "out"),
    now,
  });
  assert.match(done.target.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test("a record nested deeper than 1000 levels is bad input naming its file and line, not a stack overflow", async () => {
  // Found as 146 of 10,000 mutants (seed 2026): JSON.parse took 55,000 levels; the Codex copier then overflowed.
  const where = world();
  const path = join(where.root, "deep.jsonl");
  const fixture = readFileSync(CODEX_FIXTURE, "utf8").trimEnd().split("\n");
  const deep = `{"timestamp":"2026-11-29T20:58:30.000Z","type":"event_msg","payload":${"[".repeat(60_000)}${
    "]".repeat(60_000)
  }}`;
  writeFileSync(path, [...fixture, deep].join("\n") + "\n");
  await assert.rejects(api.load({ ...where, ref: path }), (error: Error) => {
    assert.ok(error instanceof api.InputError);
    assert.equal(
      error.message,
      `${path}:${fixture.length + 1}: a record nested deeper than 1000 levels, the limit`,
    );
    return true;
  });
});

test("tool arguments nested too deep to walk are kept as the text the model wrote, and convert to every harness", async () => {
  const where = world();
  const path = join(where.root, "deep-arguments.jsonl");
  const arguments_ = JSON.stringify(`${"[".repeat(5_000)}${"]".repeat(5_000)}`);
  const text = readFileSync(CODEX_FIXTURE, "utf8").replace(
    /"arguments":"\{\\"cmd\\":\\"echo hello-from-tool\\"\}"/,
    `"arguments":${arguments_}`,
  );
  assert.ok(text.includes("[[[[["), "the fixture's call was replaced");
  writeFileSync(path, text);
  const { session } = await api.load({ ...where, ref: path });
  const call = session.messages.flatMap((m) => m.blocks).find((c) => c.type === "tool_call");
  assert.equal(
    call?.type === "tool_call" ? call.input : undefined,
    `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
  );
  assert.deepEqual(await convertsToEveryHarness(where, session), NAMES);
});

test("a damaged Hermes state.db whose schema text spans lines is named in one line", async () => {
  // Found as seed 2026 mutant 9708: SQLite quotes the damaged trigger's SQL, line breaks and all.
  const where = world();
  mkdirSync(where.homes.hermes!, { recursive: true });
  copyFileSync(
    join(FUZZ_FIXTURES, "hermes-state-db-schema-quoting-lines.db"),
    join(where.homes.hermes!, "state.db"),
  );
  const { broken } = await api.list(where);
  assert.equal(broken.length, 1);
  assert.equal(
    broken[0]!.error,
    `${join(where.homes.hermes!, "state.db")}: the database is damaged (malformed database schema ` +
      `(messages_fts_update) - unrecognized token: "') ); END")`,
  );
});

test("brackets inside strings, after escaped quotes and backslashes too, do not count toward the nesting limit", () => {
  const deep = "[".repeat(1001) + "]".repeat(1001);
  assert.equal(nestsDeeperThan(deep), true);
  assert.equal(nestsDeeperThan("[".repeat(1000) + "]".repeat(1000)), false);
  assert.equal(nestsDeeperThan(`{"a":"${"[".repeat(2000)}"}`), false);
  assert.equal(nestsDeeperThan(`{"a":"\\"${"[".repeat(2000)}"}`), false);
  assert.equal(nestsDeeperThan(`{"a":"\\\\"}${"[".repeat(1001)}`), true);
  assert.equal(nestsDeeperThan(`"unterminated${"[".repeat(1001)}`), false);
});

test("many brackets side by side are not nesting: thousands of shallow arrays and objects pass the limit", () => {
  assert.equal(nestsDeeperThan(`[${"[],{},".repeat(2000)}[]]`), false);
  assert.equal(nestsDeeperThan(`[${"[],".repeat(2000)}${"[".repeat(1000)}${"]".repeat(1000)}]`), true);
});
