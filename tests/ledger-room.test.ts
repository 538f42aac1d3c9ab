/**
 * A handoff or undo is refused before anything is written when session-bridge's own folder has no room for
 * what it records after its commit (the ledger entry, the provenance, the undone mark), and once committed it
 * never exits 1: a record that still cannot be written is a warning, the resume command is printed, and the
 * next command records it. A script retrying on exit 1 must never make a second copy.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { builtinCoverage } from "./helpers/harness-material.ts";
import { cli, type CliResult, runCli } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";
import { freeBytes, mountTmpfs, TMPFS_SKIP, unmount } from "./helpers/tmpfs.ts";
import { ledgerPath, pendingOperations } from "../lib/store/ledger.ts";
import { sizeLimitedCli } from "./helpers/size-limited-cli.ts";

const root = tempDir();
const source = seedClaudeHome(join(root, "source"), "thinking-tool-use");
const cwd = join(root, "work");
mkdirSync(cwd);

/** Every registered harness, with its test material. */
const COVERED = await builtinCoverage();

/** Target homes as each harness starts them (its material prepares one), copied fresh for every run. */
const pristine = join(root, "pristine");
const DATABASE: Record<string, string | undefined> = Object.fromEntries(
  COVERED.map((
    { harness, material },
  ) => [harness.name, material.prepareHome(join(pristine, harness.name)).database]),
);
const HOME_FLAG: Record<string, string> = Object.fromEntries(
  COVERED.map(({ harness }) => [harness.name, `--${harness.home.flag}`]),
);

interface Run {
  home: string;
  database: string | undefined;
  args: string[];
}

let runs = 0;
/** A fresh target home of `to`, and the handoff of the Claude Code fixture into it. */
function freshRun(to: string): Run {
  const home = join(root, `run-${++runs}`, to);
  cpSync(join(pristine, to), home, { recursive: true });
  const database = DATABASE[to]?.replace(join(pristine, to), home);
  return { home, database, args: ["handoff", source.path, "--to", to, "--cwd", cwd, HOME_FLAG[to]!, home] };
}

/**
 * The target home's files (and folders, unless `folders` is false: undo leaves the ones a handoff made) and,
 * for a database, its rows per table: equal means nothing was written. `sqlite_sequence` is left out: it is
 * SQLite's high-water mark of an AUTOINCREMENT table (Copilot CLI's index has some), which a delete never lowers,
 * the harness's own deletes included.
 */
function state(run: Run, folders = true): string {
  const files = Object.entries(snapshot(run.home)).filter(([p, hash]) =>
    !/\.(?:sqlite|db)(?:-wal|-shm)?$/.test(p) && (folders || hash !== "dir")
  );
  let rows: Record<string, number> = {};
  if (run.database) {
    const db = new DatabaseSync(run.database, { readOnly: true });
    const tables = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' AND name <> 'sqlite_sequence'",
    )
      .all() as { name: string }[];
    rows = Object.fromEntries(
      tables.map((
        { name },
      ) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]),
    );
    db.close();
  }
  return JSON.stringify({ files, rows });
}

const intentsLeft = (bridge: string) =>
  existsSync(join(bridge, "intents")) ? readdirSync(join(bridge, "intents")) : [];

/** The file size limit the runs below are given (`ulimit -f`, in KiB): far above any file a handoff writes. */
const LIMIT_KIB = 1024;

/** The CLI with its files limited to LIMIT_KIB (tests/helpers/size-limited-cli.ts). */
const cliLimited = (args: string[], env: Record<string, string>): CliResult =>
  sizeLimitedCli(LIMIT_KIB, args, env);

/** Grows the ledger with blank lines (which it skips) to a few bytes short of the limit: no record fits. */
function ledgerAtLimit(bridge: string): void {
  mkdirSync(bridge, { recursive: true });
  const path = ledgerPath(bridge);
  const has = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
  const blank = LIMIT_KIB * 1024 - has.length - 16;
  writeFileSync(path, Buffer.concat([has, Buffer.alloc(blank - 1, " "), Buffer.from("\n")]));
}

for (const { harness: { name: to } } of COVERED) {
  test(`a ${to} handoff whose ledger record fails after its commit exits 0 with the resume command and a warning, and the next command records it once`, () => {
    const run = freshRun(to);
    const bridge = join(root, `bridge-committed-${to}`);
    const env = { SESSION_BRIDGE_HOME: bridge };
    ledgerAtLimit(bridge);
    const r = cliLimited(run.args, env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\nresume with:\n {2}cd /);
    const op = /\nundo with:\n {2}session-bridge undo (\S+)\n/.exec(r.stdout)?.[1];
    assert.ok(op, r.stdout);
    assert.match(
      r.stderr,
      new RegExp(
        `session-bridge: warning: the handoff could not be recorded in the undo ledger yet ` +
          `\\(${ledgerPath(bridge)}: the file would be larger than the limit allowed \\(ulimit -f\\)\\); ` +
          `the next session-bridge command records it, then undo ${op} takes it back\n`,
      ),
    );
    assert.deepEqual(intentsLeft(bridge), [`${op}.json`], "the intent stays for the next command");
    const recovered = cli(["recover"], env);
    assert.equal(recovered.code, 0, recovered.stderr);
    assert.match(recovered.stdout, new RegExp(`completed interrupted handoff ${op} `));
    assert.deepEqual(pendingOperations(bridge).map((e) => e.op), [op]);
    assert.deepEqual(intentsLeft(bridge), []);
    const undone = cli(["undo", op!], env);
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(
      state(run, false),
      state({ ...run, home: join(pristine, to), database: DATABASE[to] }, false),
    );
  });
}

test("an undo whose undone mark fails after it removed the handoff exits 0 with a warning, and the next command records it", () => {
  const run = freshRun("hermes");
  const bridge = join(root, "bridge-undo-committed");
  const env = { SESSION_BRIDGE_HOME: bridge };
  const handed = cli(run.args, env);
  assert.equal(handed.code, 0, handed.stderr);
  const [entry] = pendingOperations(bridge);
  ledgerAtLimit(bridge);
  const r = cliLimited(["undo", entry!.op], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^undid ${entry!.op} `));
  assert.match(
    r.stderr,
    new RegExp(
      `session-bridge: warning: the undo could not be recorded in the undo ledger yet ` +
        `\\(${ledgerPath(bridge)}: the file would be larger than the limit allowed \\(ulimit -f\\)\\); ` +
        "the next session-bridge command records it\n",
    ),
  );
  assert.deepEqual(intentsLeft(bridge), [`undo-${entry!.op}.json`]);
  assert.equal(state(run), state({ ...run, home: join(pristine, "hermes"), database: DATABASE.hermes }));
  const recovered = cli(["recover"], env);
  assert.equal(recovered.code, 0, recovered.stderr);
  assert.match(recovered.stdout, /finished interrupted undo of handoff/);
  assert.deepEqual(pendingOperations(bridge), []);
  assert.deepEqual(intentsLeft(bridge), []);
});

const PAGE = 4096;

/** Leaves `free` bytes free on the tmpfs at `mount` (its filler file taking the rest). */
function leaveFree(mount: string, free: number): void {
  const filler = join(mount, "filler");
  rmSync(filler, { force: true });
  const take = freeBytes(mount) - free;
  assert.ok(take >= 0, `the tmpfs has ${freeBytes(mount)} bytes free, fewer than ${free}`);
  writeFileSync(filler, Buffer.alloc(take));
}

/**
 * What running `command` with `free` bytes free for session-bridge's own folder gave: exit 0 with the resume
 * command and the record written, or exit 1 saying the disk is full with nothing written; anything else fails.
 */
async function checkAtFree(
  mount: string,
  free: number,
  run: Run,
  command: string[],
  recorded: (bridge: string) => boolean,
): Promise<"done" | "refused"> {
  const bridge = join(mount, "bridge");
  const before = state(run);
  leaveFree(mount, free);
  const r = await runCli(command, { SESSION_BRIDGE_HOME: bridge });
  const at = `with ${free} bytes free: ${r.stderr}`;
  assert.deepEqual(intentsLeft(bridge), [], `no intent stays ${at}`);
  if (r.code === 0) {
    assert.ok(recorded(bridge), `exit 0 and the ledger records it ${at}`);
    return "done";
  }
  assert.equal(r.code, 1, at);
  assert.match(r.stderr, /the disk is full/, at);
  assert.doesNotMatch(r.stdout, /resume with:/, at);
  assert.equal(state(run), before, `a refusal writes nothing ${at}`);
  return "refused";
}

/** Copies session-bridge's folder as it was onto the tmpfs (for the undo runs). */
function bridgeFrom(mount: string, saved: string): void {
  rmSync(join(mount, "bridge"), { recursive: true, force: true });
  if (existsSync(saved)) cpSync(saved, join(mount, "bridge"), { recursive: true });
}

for (const { harness: { name: to } } of COVERED) {
  test(
    `a ${to} handoff with room in session-bridge's folder for the backup but not its records is refused with nothing written, at every amount of free space`,
    {
      skip: TMPFS_SKIP,
    },
    async () => {
      const mount = join(root, `tmpfs-handoff-${to}`);
      assert.ok(mountTmpfs(mount, "16m"));
      try {
        // What a handoff takes there (backups, ledger, provenance), measured on the same file system.
        const probe = freshRun(to);
        const free = freeBytes(mount);
        assert.equal((await runCli(probe.args, { SESSION_BRIDGE_HOME: join(mount, "probe") })).code, 0);
        const takes = free - freeBytes(mount);
        rmSync(join(mount, "probe"), { recursive: true });
        const outcomes: string[] = [];
        // From short of the backups to a page past what it all takes (the old failure: committed, exit 1).
        for (let room = Math.max(takes - 16 * PAGE, 0); room <= takes + PAGE; room += PAGE) {
          rmSync(join(mount, "bridge"), { recursive: true, force: true });
          const run = freshRun(to);
          outcomes.push(
            await checkAtFree(mount, room, run, run.args, (b) => pendingOperations(b).length === 1),
          );
        }
        const run = freshRun(to);
        rmSync(join(mount, "bridge"), { recursive: true, force: true });
        outcomes.push(
          await checkAtFree(mount, takes + 2 ** 20, run, run.args, (b) => pendingOperations(b).length === 1),
        );
        assert.ok(outcomes.includes("refused") && outcomes.at(-1) === "done", outcomes.join(" "));
      } finally {
        unmount(mount);
      }
    },
  );
}

test(
  "an undo with room in session-bridge's folder for its backup but not its undone mark is refused with nothing changed, at every amount of free space",
  {
    skip: TMPFS_SKIP,
  },
  async () => {
    const mount = join(root, "tmpfs-undo");
    assert.ok(mountTmpfs(mount, "16m"));
    try {
      const run = freshRun("hermes");
      const handedOff = join(root, "bridge-before-undo");
      assert.equal((await runCli(run.args, { SESSION_BRIDGE_HOME: handedOff })).code, 0);
      const [entry] = pendingOperations(handedOff);
      const withHandoff = state(run);
      const saved = join(root, "hermes-with-handoff");
      cpSync(run.home, saved, { recursive: true });
      // What the undo takes there (its backup of state.db, the mark), measured on the same file system.
      bridgeFrom(mount, handedOff);
      const free = freeBytes(mount);
      assert.equal(
        (await runCli(["undo", entry!.op], { SESSION_BRIDGE_HOME: join(mount, "bridge") })).code,
        0,
      );
      const takes = free - freeBytes(mount);
      const outcomes: string[] = [];
      for (let room = Math.max(takes - 16 * PAGE, 0); room <= takes + PAGE; room += PAGE) {
        bridgeFrom(mount, handedOff);
        rmSync(run.home, { recursive: true });
        cpSync(saved, run.home, { recursive: true });
        assert.equal(state(run), withHandoff);
        outcomes.push(
          await checkAtFree(mount, room, run, ["undo", entry!.op], (b) => pendingOperations(b).length === 0),
        );
      }
      assert.ok(outcomes.includes("refused"), outcomes.join(" "));
    } finally {
      unmount(mount);
    }
  },
);
