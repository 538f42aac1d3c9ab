/**
 * Text planted in Codex and Hermes stores (a cwd, a model, a tool name, a title) carrying an OSC 52 clipboard
 * write, a screen clear and a right-to-left override reaches the terminal only as visible escapes; and a title
 * handed to another harness's title field (a Codex `threads` row, a Hermes `sessions` row) loses those
 * characters altogether, as the harness's picker would show it as is.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { makeCodexHome, seedCodexThread, threadRow } from "./helpers/codex.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { FIXTURE_CWD, seedClaudeHome } from "./helpers/fixtures.ts";

// An OSC 52 clipboard write, a screen clear, an 8-bit CSI and a right-to-left override.
const HOSTILE = "\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b1m\u202eexe.txt";
const SHOWN = "\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2J\\u009b1m\\u202eexe.txt";
const DROPPED = "]52;c;cm0gLXJmIH4=[2J1mexe.txt";
// deno-lint-ignore no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);

const root = tempDir();
const work = join(root, "work");
mkdirSync(work);
const homes = {
  claude: join(root, "claude"),
  codex: join(root, "codex"),
  hermes: join(root, "hermes"),
};
const homeFlags = [
  "--claude-home",
  homes.claude,
  "--codex-home",
  homes.codex,
  "--hermes-home",
  homes.hermes,
];
const cli = (args: string[]) => runCli([...args, ...homeFlags]);

makeCodexHome(homes.codex);
const codex = seedCodexThread(homes.codex, "0.169.0", "tool-call");
writeFileSync(
  codex.path,
  readFileSync(codex.path, "utf8")
    .replaceAll(FIXTURE_CWD, `/home/user/${inJson(HOSTILE)}`)
    .replaceAll('"model":"gpt-5.5"', `"model":"gpt${inJson(HOSTILE)}"`)
    .replaceAll('"name":"exec_command"', `"name":"exec${inJson(HOSTILE)}"`),
);
{
  const db = new DatabaseSync(join(homes.codex, "state_5.sqlite"));
  db.prepare("UPDATE threads SET cwd = ?, preview = ?, title = ?").run(
    `/home/user/${HOSTILE}`,
    `preview ${HOSTILE}`,
    `title ${HOSTILE}`,
  );
  db.close();
}

const hermesDb = seedHermesHome(homes.hermes, "0.19.0", "compressed");
const hermesId = "20261129_210454_093577";
{
  const db = new DatabaseSync(hermesDb);
  // Titles are unique in Hermes: each session gets its own.
  db.prepare("UPDATE sessions SET title = 'title ' || ? || id, cwd = ?, model = ?").run(
    HOSTILE,
    `/home/user/${HOSTILE}`,
    `model${HOSTILE}`,
  );
  db.prepare("UPDATE messages SET tool_name = ? WHERE tool_name IS NOT NULL").run(`term${HOSTILE}`);
  db.prepare("UPDATE messages SET tool_calls = replace(tool_calls, '\"terminal\"', ?)").run(
    JSON.stringify(`term${HOSTILE}`),
  );
  db.close();
}

const claude = seedClaudeHome(homes.claude, "interrupted-tool-call");
appendFileSync(
  claude.path,
  `${JSON.stringify({ type: "custom-title", customTitle: `T ${HOSTILE}`, sessionId: claude.id })}\n`,
);

function assertInert(where: string, text: string) {
  assert.doesNotMatch(text, RAW, `${where} carries a raw control character: ${JSON.stringify(text)}`);
}

test("list shows hostile Codex and Hermes cwds and titles as visible escapes", async () => {
  const r = await cli(["list", "--full-ids"]);
  assert.equal(r.code, 0, r.stderr);
  assertInert("list", r.stdout + r.stderr);
  const row = (id: string) => r.stdout.split("\n").find((l) => l.includes(id)) ?? "";
  assert.ok(row(codex.id).includes(`/home/user/${SHOWN}`), row(codex.id));
  assert.ok(row(hermesId).includes(`/home/user/${SHOWN}`), row(hermesId));
  assert.ok(row(hermesId).includes(`title ${SHOWN}${hermesId}`), row(hermesId));
});

test("inspect and show of hostile Codex and Hermes sessions escape cwd, model and tool names", async () => {
  for (const id of [codex.id, hermesId]) {
    const inspect = await cli(["inspect", id]);
    assert.equal(inspect.code, 0, inspect.stderr);
    assertInert(`inspect ${id}`, inspect.stdout + inspect.stderr);
    assert.ok(inspect.stdout.includes(`cwd       /home/user/${SHOWN}`), inspect.stdout);
    const show = await cli(["show", id]);
    assert.equal(show.code, 0, show.stderr);
    assertInert(`show ${id}`, show.stdout + show.stderr);
  }
  const codexInspect = await cli(["inspect", codex.id]);
  assert.ok(codexInspect.stdout.includes(`models    gpt${SHOWN}`), codexInspect.stdout);
  const hermesShow = await cli(["show", hermesId]);
  assert.ok(hermesShow.stdout.includes(`term${SHOWN}`), "the hostile tool name is shown, escaped");
});

test("an error naming a hostile reference escapes it", async () => {
  const r = await cli(["inspect", `title ${HOSTILE}nothing`]);
  assert.equal(r.code, 2);
  assertInert("error", r.stdout + r.stderr);
  assert.ok(r.stderr.includes(SHOWN), r.stderr);
});

test("a title handed to Codex or Hermes drops control characters and bidi overrides", async () => {
  const toCodex = await cli([
    "handoff",
    claude.id,
    "--to",
    "codex",
    "--cwd",
    work,
    "--session-id",
    "019a0000-0000-7000-8000-000000000011",
  ]);
  assert.equal(toCodex.code, 0, toCodex.stderr);
  assertInert("handoff", toCodex.stdout + toCodex.stderr);
  const row = threadRow(homes.codex, "019a0000-0000-7000-8000-000000000011")!;
  assert.equal(row.title, `T ${DROPPED}`);
  assert.equal(row.name, `T ${DROPPED}`);

  const toHermes = await cli(["handoff", claude.id, "--to", "hermes", "--cwd", work]);
  assert.equal(toHermes.code, 0, toHermes.stderr);
  const titled = query(hermesDb, "SELECT title FROM sessions WHERE title LIKE 'T %'");
  assert.deepEqual(titled, [{ title: `T ${DROPPED}` }]);

  // A copy within Hermes given a hostile --title is cleaned the same way.
  const copy = await cli([
    "handoff",
    hermesId,
    "--to",
    "hermes",
    "--cwd",
    work,
    "--title",
    `copy ${HOSTILE}`,
  ]);
  assert.equal(copy.code, 0, copy.stderr);
  const copied = query(hermesDb, "SELECT title FROM sessions WHERE title LIKE 'copy %'");
  assert.deepEqual(copied, [{ title: `copy ${DROPPED}` }]);
});
