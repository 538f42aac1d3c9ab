/**
 * One bad store fails alone (issue 36, item 5): a home that cannot be read, a store in a read-only
 * folder, a symbolic link that loops in a store's folders. `list` still lists every other store's sessions and
 * names the bad one in one line on stderr (exit 1, as for any store that cannot be read); `doctor` finishes,
 * naming the store and the fix (exit 1). What Hermes itself passes over (an `active_profile` it cannot read)
 * is passed over here too, and a store that can be read (a read-only folder) is listed.
 *
 * Permissions do not bind root: those cases run the CLI as `nobody` when this process is root (setpriv), and
 * skip saying why when that cannot be done. The same paths are also reached without privileges, by links that
 * loop, so they are tested wherever this file runs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { tuiEnv, type TuiHomes, tuiHomes } from "./helpers/tui-homes.ts";
import { unprivileged } from "./helpers/unprivileged.ts";
import type { DoctorCheck, DoctorReport } from "../lib/pipeline/doctor.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { expectedFor } from "./helpers/harness-material.ts";

/** Every registered harness, in the order `list` sorts them here. */
const ALL = builtinRegistry.harnesses.map((h) => h.name).sort();
const LOOP = "too many symbolic links to follow (a link on the way leads back to itself)";

/** Every harness's home seeded with one session, under a folder of its own in a private temp folder. */
// Every registered harness's store holds a session.
const machine = (): TuiHomes =>
  tuiHomes(join(tempDir("sb-alone-"), "m"), {
    gemini: true,
    opencode: true,
    copilot: true,
    pi: true,
  });

/** The stores' environment for a CLI run as another user: its own home (the alias registry is looked for there). */
const unprivilegedEnv = (homes: TuiHomes): Record<string, string> => ({ ...tuiEnv(homes), HOME: homes.root });

/** The harnesses whose sessions `list --json` gave, in order, one per session. */
const listedHarnesses = (json: Record<string, unknown>): string[] =>
  (json.sessions as { harness: string }[]).map((s) => s.harness).sort();

const storeCheck = (report: DoctorReport, harness: string): DoctorCheck | undefined =>
  report.checks.find((c) => c.subject === harness && c.check === "store");

/** `list` and `doctor` with one store broken: the others listed and checked, the broken one named once. */
async function assertFailsAlone(homes: TuiHomes, broken: string, line: string): Promise<DoctorReport> {
  const env = tuiEnv(homes);
  const r = await runCli(["list"], env);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, `session-bridge: ${line}\n`);
  const rows = r.stdout.trim().split("\n").slice(1).map((row) => row.split(" ")[0]);
  assert.deepEqual(rows.sort(), ALL.filter((h) => h !== broken));

  const json = await runCliJson(["list"], env);
  assert.equal(json.code, 1);
  assert.deepEqual(listedHarnesses(json.json), ALL.filter((h) => h !== broken));

  const d = await runCliJson(["doctor"], { ...env, PATH: "/usr/bin:/bin" });
  assert.equal(d.code, 1, d.stderr);
  const report = d.json as unknown as DoctorReport;
  for (const h of ALL.filter((h) => h !== broken)) assert.equal(storeCheck(report, h)?.status, "ok", h);
  const check = storeCheck(report, broken);
  assert.equal(check?.status, "problem");
  return report;
}

test("an active_profile Hermes cannot read (a folder, a FIFO, a link that loops) is passed over as Hermes does: every store lists", async () => {
  const kinds: Record<string, (marker: string) => void> = {
    "a folder": (marker) => mkdirSync(marker),
    "a FIFO": (marker) => assert.equal(spawnSync("mkfifo", [marker]).status, 0, "mkfifo"),
    "a link that loops": (marker) => symlinkSync("active_profile", marker),
    "a link to nothing": (marker) => symlinkSync("gone", marker),
  };
  for (const [kind, make] of Object.entries(kinds)) {
    const homes = machine();
    make(join(homes.hermes, "active_profile"));
    const env = tuiEnv(homes);
    const r = await runCliJson(["list"], env);
    assert.equal(r.stderr, "", kind);
    assert.equal(r.code, 0, kind);
    assert.deepEqual(listedHarnesses(r.json), ALL, kind);
    const d = await runCliJson(["doctor"], { ...env, PATH: "/usr/bin:/bin" });
    assert.equal(d.code, 0, `${kind}: ${d.stdout}`);
    assert.equal(storeCheck(d.json as unknown as DoctorReport, "hermes")?.status, "ok", kind);
  }
});

test("a Hermes profiles folder that is a link that loops fails the Hermes store alone, named once; doctor gives the fix", async () => {
  const homes = machine();
  const profiles = join(homes.hermes, "profiles");
  symlinkSync("profiles", profiles);
  const report = await assertFailsAlone(
    homes,
    "hermes",
    `hermes store ${join(homes.hermes, "state.db")} cannot be read: ${profiles}: ${LOOP}`,
  );
  assert.ok(storeCheck(report, "hermes")!.fix!.includes(`remove the link ${profiles} `));
});

test("a symbolic link that loops under Claude Code's projects fails that store alone, named once, wherever it is", async () => {
  const cases: Record<string, (projects: string) => string> = {
    "projects itself": (projects) => {
      renameSync(projects, `${projects}.real`);
      symlinkSync("projects", projects);
      return projects;
    },
    "a project's folder": (projects) => {
      symlinkSync("loop", join(projects, "loop"));
      return join(projects, "loop");
    },
    "a transcript": (projects) => {
      const name = "11111111-1111-4111-8111-111111111111.jsonl";
      const path = join(projects, readdirSync(projects)[0]!, name);
      symlinkSync(name, path);
      return path;
    },
  };
  for (const [where, make] of Object.entries(cases)) {
    const homes = machine();
    const projects = join(homes.claude, "projects");
    const link = make(projects);
    const report = await assertFailsAlone(
      homes,
      "claude-code",
      `claude-code store ${projects} cannot be read: ${link}: ${LOOP}`,
    );
    assert.ok(storeCheck(report, "claude-code")!.fix!.includes(`remove the link ${link} `), where);
  }
});

test("a symbolic link that loops under Codex's sessions fails the Codex store alone, named once", async () => {
  const homes = machine();
  const link = join(homes.codex, "sessions", "loop");
  symlinkSync("loop", link);
  await assertFailsAlone(homes, "codex", `codex store ${homes.codex} cannot be read: ${link}: ${LOOP}`);
});

test("a handoff into Claude Code whose projects folder loops says so in one line, not a raw ELOOP", async () => {
  const homes = machine();
  const projects = join(homes.claude, "projects");
  const codex = await runCliJson(["list", "--from", "codex"], tuiEnv(homes));
  const [{ id }] = codex.json.sessions as [{ id: string }];
  renameSync(projects, `${projects}.real`);
  symlinkSync("projects", projects);
  // By its whole id: a prefix would also warn that the Claude Code store could not be searched for it.
  const r = await runCli(["handoff", id, "--to", "claude-code", "--cwd", homes.project], tuiEnv(homes));
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, `session-bridge: ${projects}: ${LOOP}\n`);
});

test("handing off a transcript given by a path that loops says so in one line, not a raw ELOOP", async () => {
  const homes = machine();
  const projects = join(homes.claude, "projects");
  const path = join(projects, readdirSync(projects)[0]!, "11111111-1111-4111-8111-111111111111.jsonl");
  symlinkSync(path, path);
  const r = await runCli(["handoff", path, "--to", "codex", "--dry-run"], tuiEnv(homes));
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, `session-bridge: ${path}: ${LOOP}\n`);
});

const asNobody = unprivileged();
const skipUnprivileged = typeof asNobody === "string" ? asNobody : false;

/** Each harness's home, and the store its broken line names (what `locate` gives for that home). */
const STORES: Record<string, { home: (homes: TuiHomes) => string; store: (home: string) => string }> = {
  "claude-code": { home: (homes) => homes.claude, store: (home) => join(home, "projects") },
  codex: { home: (homes) => homes.codex, store: (home) => home },
  hermes: { home: (homes) => homes.hermes, store: (home) => join(home, "state.db") },
  "gemini-cli": { home: (homes) => homes.gemini, store: (home) => join(home, ".gemini") },
  opencode: { home: (homes) => homes.opencode, store: (home) => join(home, "opencode.db") },
  "copilot-cli": { home: (homes) => homes.copilot, store: (home) => join(home, "session-state") },
  pi: { home: (homes) => homes.pi, store: (home) => join(home, "sessions") },
};

test(
  "a home that cannot be read fails its store alone: the others listed, it named once, doctor gives the fix",
  {
    skip: skipUnprivileged,
  },
  () => {
    if (typeof asNobody === "string") return;
    for (const harness of ALL) {
      const { home: homeIn, store } = expectedFor(STORES, harness, "seeded home and store path");
      const homes = machine();
      const home = homeIn(homes);
      asNobody.own(homes.root);
      chmodSync(home, 0o000);
      try {
        assertUnreadableHome(homes, harness, home, store(home));
      } finally {
        // Removable again by a test run that is not root.
        chmodSync(home, 0o755);
      }
    }
  },
);

function assertUnreadableHome(homes: TuiHomes, harness: string, home: string, store: string): void {
  if (typeof asNobody === "string") return;
  const env = unprivilegedEnv(homes);
  const others = ALL.filter((h) => h !== harness);
  const r = asNobody.cli(["list"], env);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stderr,
    `session-bridge: ${harness} store ${store} cannot be read: ${home}: permission denied\n`,
  );
  assert.deepEqual(r.stdout.trim().split("\n").slice(1).map((row) => row.split(" ")[0]).sort(), others);

  const d = asNobody.cli(["doctor", "--json"], { ...env, PATH: "/usr/bin:/bin" });
  assert.equal(d.code, 1, d.stderr);
  const report = JSON.parse(d.stdout) as DoctorReport;
  for (const h of others) assert.equal(storeCheck(report, h)?.status, "ok", `${harness}: ${h}`);
  const check = storeCheck(report, harness)!;
  assert.equal(check.status, "problem");
  assert.equal(check.detail, `${store} cannot be read: ${home}: permission denied`);
  assert.equal(
    check.fix,
    `make ${home} readable by you again (mode 000, owned by you): \`chmod u+rwX ${home}\``,
  );
}

/** `run`'s result, the stores' folders made writable again after it (for a test run that is not root to remove). */
function writable<T>(homes: TuiHomes, run: () => T): T {
  try {
    return run();
  } finally {
    chmodSync(homes.codex, 0o755);
    chmodSync(homes.hermes, 0o755);
  }
}

/** Puts a store database in WAL mode, as a running Codex or Hermes keeps it (no -wal or -shm once closed). */
function inWalMode(path: string): void {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.close();
}

test(
  "stores in read-only folders are listed: a WAL database with no -wal or -shm beside it is read as it is",
  {
    skip: skipUnprivileged,
  },
  () => {
    if (typeof asNobody === "string") return;
    const homes = machine();
    inWalMode(join(homes.codex, "state_5.sqlite"));
    inWalMode(join(homes.hermes, "state.db"));
    asNobody.own(homes.root);
    const before = { codex: readdirSync(homes.codex).sort(), hermes: readdirSync(homes.hermes).sort() };
    chmodSync(homes.codex, 0o555);
    chmodSync(homes.hermes, 0o555);
    const r = writable(homes, () => asNobody.cli(["list", "--json"], unprivilegedEnv(homes)));
    assert.equal(r.stderr, "");
    assert.equal(r.code, 0);
    assert.deepEqual(listedHarnesses(JSON.parse(r.stdout) as Record<string, unknown>), ALL);
    assert.deepEqual(
      { codex: readdirSync(homes.codex).sort(), hermes: readdirSync(homes.hermes).sort() },
      before,
    );
  },
);

test("a store in a read-only folder whose -wal holds writes not yet checkpointed (and no -shm) lists them", {
  skip: skipUnprivileged,
}, () => {
  if (typeof asNobody === "string") return;
  const homes = machine();
  const path = join(homes.hermes, "state.db");
  inWalMode(path);
  // A Hermes that stopped with its last write still in the -wal: the database file as it was before the write,
  // the write in the -wal, and no -shm (a home copied or restored without it).
  const before = readFileSync(path);
  const db = new DatabaseSync(path);
  db.exec("PRAGMA wal_autocheckpoint = 0");
  db.exec("UPDATE sessions SET title = 'Written by a running Hermes'");
  const wal = readFileSync(`${path}-wal`);
  db.close();
  writeFileSync(path, before);
  writeFileSync(`${path}-wal`, wal);
  asNobody.own(homes.root);
  chmodSync(homes.hermes, 0o555);
  const r = writable(
    homes,
    () => asNobody.cli(["list", "--json", "--from", "hermes"], unprivilegedEnv(homes)),
  );
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  const sessions = (JSON.parse(r.stdout) as { sessions: { title?: string }[] }).sessions;
  assert.deepEqual(sessions.map((s) => s.title), ["Written by a running Hermes"]);
  assert.deepEqual(readdirSync(homes.hermes).sort(), ["config.yaml", "state.db", "state.db-wal"]);
});
