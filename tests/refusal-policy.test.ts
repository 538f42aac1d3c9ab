/**
 * One refusal policy: the same situation, driven through the CLI into each harness, is refused with the same
 * exit code and a message of the same shape (one stderr line), and leaves the target store as it was.
 *
 *   situation                                   claude-code   codex   hermes   gemini-cli    opencode   pi
 *   the session id is taken (no --force)          1             1       1        1             1          1
 *   a dry run of that handoff                     1             1       1        1             1          1
 *   an unsafe or malformed --session-id           2             2       2        2             2          2
 *   no state database in the home                 (none kept)   1       1        (none kept)   1          (none kept)
 *   the state database is not SQLite              (none kept)   1       1        (none kept)   1          (none kept)
 *   the state database lacks the harness's table  (none kept)   1       1        (none kept)   1          (none kept)
 *
 * Claude Code, Gemini CLI and Pi keep no database: a fresh home simply gets its first project folder.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { claudeFixture } from "./helpers/fixtures.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";
import { builtinCoverage, type Covered, expectedFor } from "./helpers/harness-material.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { InputError } from "../lib/errors.ts";

const root = tempDir();
const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
const source = claudeFixture("interactive");
mkdirSync(join(root, "project"));
const cwd = realpathSync(join(root, "project"));
/** The id each harness's handoffs are given: one it would make itself (a UUID, a Hermes id, an OpenCode `ses_`). */
const idFor = ({ harness }: Covered) => harness.store.newId(new Date("2026-12-01T03:00:00Z"));
let n = 0;

interface World {
  home: string;
  /** The store's database, for the harnesses that keep one. */
  database?: string;
  flags: string[];
}

/** Every registered harness, with its test material. */
const COVERED = await builtinCoverage();

/** A fresh home of the harness, as the harness itself would leave it after a first run (`make`). */
function world({ harness, material }: Covered, make = true): World {
  const to = harness.name;
  const home = join(root, `${to}-${n++}`);
  mkdirSync(home, { recursive: true });
  // Every home is named, so no test reaches the real ones.
  const flags = COVERED.flatMap(({ harness: h }) => [
    `--${h.home.flag}`,
    h.name === to ? home : join(root, `unused-${n}`),
  ]);
  if (!make) return { home, flags };
  const { database } = material.prepareHome(home);
  return { home, flags, ...(database ? { database } : {}) };
}

async function handoff(to: string, w: World, extra: string[] = [], vars: Record<string, string> = {}) {
  return await runCli(["handoff", source, "--to", to, "--cwd", cwd, ...w.flags, ...extra], {
    ...env,
    ...vars,
  });
}

/** Refused: the exit code, exactly one stderr line matching `message`, and the home unchanged. */
async function refuses(
  to: string,
  w: World,
  extra: string[],
  code: number,
  message: RegExp,
  vars: Record<string, string> = {},
) {
  const before = snapshot(w.home);
  const r = await handoff(to, w, extra, vars);
  assert.equal(r.code, code, r.stderr);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, message);
  assert.deepEqual(snapshot(w.home), before, "the store is unchanged");
  return lines[0]!;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const exists = (id: string) =>
  new RegExp(
    `^session-bridge: session ${id} already exists in (.+) \\(pass another --session-id, or --force to replace it: ` +
      `backed up first, undone by session-bridge undo\\)$`,
  );
/** How a harness's refusals name its state database; null: it keeps none (a fresh home is simply written). */
interface DatabaseRefusal {
  /** The harness as the messages name it ("Codex"). */
  label: string;
  /** The command the user runs once so it creates its database. */
  command: string;
  /** A table without which the database is not the harness's. */
  table: string;
}
const DATABASE_REFUSALS: Record<string, DatabaseRefusal | null> = {
  "claude-code": null,
  codex: { label: "Codex", command: "codex", table: "threads" },
  hermes: { label: "Hermes", command: "hermes", table: "messages" },
  // Files only: a home Gemini never ran in gets projects.json and the session file.
  "gemini-cli": null,
  opencode: { label: "OpenCode", command: "opencode", table: "session" },
  // Its index is optional: a home without session-store.db takes the session folder alone (Copilot lists and
  // resumes sessions from their folders).
  "copilot-cli": null,
  // Files only: a home Pi never ran in gets its project folder and the session file.
  pi: null,
};

for (const covered of COVERED) {
  const to = covered.harness.name;
  const ID = idFor(covered);
  const EXISTS = exists(ID);
  test(`${to}: a session id already taken is refused (exit 1) naming it and where it is, without --force`, async () => {
    const w = world(covered);
    assert.equal((await handoff(to, w, ["--session-id", ID])).code, 0);
    const line = await refuses(to, w, ["--session-id", ID], 1, EXISTS);
    assert.ok(EXISTS.exec(line)![1]!.startsWith(w.home), line);
  });

  test(`${to}: a dry run of a handoff onto a taken id shows the same refusal (exit 1)`, async () => {
    const w = world(covered);
    assert.equal((await handoff(to, w, ["--session-id", ID])).code, 0);
    const r = await runCliJson([
      "handoff",
      source,
      "--to",
      to,
      "--cwd",
      cwd,
      ...w.flags,
      "--session-id",
      ID,
      "--dry-run",
    ], env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(`session-bridge: ${r.json.refusal}`, EXISTS);
  });

  test(`${to}: a refused dry run's --json says ok false, with the refusal as its error and exit 1`, async () => {
    const w = world(covered);
    assert.equal((await handoff(to, w, ["--session-id", ID])).code, 0);
    const args = ["handoff", source, "--to", to, "--cwd", cwd, ...w.flags, "--session-id", ID, "--dry-run"];
    const r = await runCliJson(args, env);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.ok, false);
    assert.deepEqual(r.json.error, { message: r.json.refusal, exitCode: 1 });
    assert.match(r.stderr.trim().split("\n").at(-1)!, EXISTS);
    const fresh = world(covered);
    const planned = await runCliJson([
      "handoff",
      source,
      "--to",
      to,
      "--cwd",
      cwd,
      ...fresh.flags,
      "--dry-run",
    ], env);
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(planned.json.ok, true);
    assert.equal(planned.json.error, undefined);
  });

  test(`${to}: an unsafe --session-id is bad input (exit 2), refused before any store is read`, async () => {
    const w = world(covered);
    await refuses(
      to,
      w,
      ["--session-id", "../escape"],
      2,
      /^session-bridge: invalid session id "\.\.\/escape": (expected a UUID|use letters, digits, '\.', '_' or '-'|expected an OpenCode id, .+)$/,
    );
  });

  test(`${to}: planning in the library refuses an unsafe id as bad input too`, async () => {
    const target = covered.harness;
    const w = world(covered);
    const session = await readClaudeSession(source);
    const now = new Date("2026-12-01T03:00:00Z");
    await assert.rejects(
      async () =>
        await target.store.plan(session, { id: "../escape", cwd, now, stubOpenCalls: false }, w.home, false),
      (error: unknown) =>
        error instanceof InputError && /^invalid session id "\.\.\/escape": /.test(error.message),
    );
  });
}

for (const covered of COVERED) {
  const to = covered.harness.name;
  const refusal = expectedFor(DATABASE_REFUSALS, to, "way of refusing a home's state database");
  if (!refusal) continue;
  const { label, command, table } = refusal;
  test(`${to}: a home without a state database is refused (exit 1), and none is created`, async () => {
    const w = world(covered, false);
    await refuses(
      to,
      w,
      [],
      1,
      new RegExp(
        `^session-bridge: no ${label} state database in ${
          escape(w.home)
        } \\(run ${command} there once so it creates one\\)$`,
      ),
    );
  });

  test(`${to}: a state database that is not SQLite is refused (exit 1) as a store that cannot be written`, async () => {
    const w = world(covered);
    writeFileSync(w.database!, "this is not a database\n");
    await refuses(
      to,
      w,
      [],
      1,
      new RegExp(`^session-bridge: cannot write to ${escape(w.database!)}: not a SQLite database$`),
    );
  });

  test(`${to}: a state database without the harness's table is refused (exit 1) naming the table`, async () => {
    const w = world(covered);
    const db = new DatabaseSync(w.database!);
    db.exec(`DROP TABLE ${table}`);
    db.close();
    await refuses(
      to,
      w,
      [],
      1,
      new RegExp(
        `^session-bridge: cannot write to ${
          escape(w.database!)
        }: no table ${table} \\(not an? ${label} state database\\)$`,
      ),
    );
  });
}

for (const covered of COVERED.filter(({ harness }) => harness.store.versionVariable)) {
  const { harness } = covered;
  const name = harness.name;
  test(`${name}: a target version override that is no version is bad input (exit 2), naming the variable`, async () => {
    const w = world(covered);
    await refuses(
      name,
      w,
      [],
      2,
      new RegExp(
        `^session-bridge: ${harness.store.versionVariable}="banana" is not a version \\(expected numbers like 1\\.2\\.3\\)$`,
      ),
      { [harness.store.versionVariable!]: "banana" },
    );
  });
}
