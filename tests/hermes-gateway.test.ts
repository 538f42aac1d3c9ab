/**
 * One writer for Hermes (issue 30, item 9): while a Hermes home's gateway runs, it alone writes its state.db,
 * so a handoff into that home refuses, naming the gateway and the command that stops it, and changes nothing.
 * The gateway is found as Hermes finds it (gateway/status.py): the flock it holds on gateway.lock, or a
 * gateway.pid naming a live process that started when the record says (a pid given to another process since
 * does not count). Real processes stand in for the gateway: Python holding the lock, `sleep` named by the file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { seedHermesHome, sha256 } from "./helpers/hermes.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const skip = process.platform === "linux" ? false : "the gateway's lock and start time are read from /proc";

function world() {
  const root = tempDir("sb-gateway-");
  const source = seedClaudeHome(join(root, "claude"), "plain-text");
  const hermesHome = join(root, "hermes");
  const db = seedHermesHome(hermesHome, "0.19.0", "text-turns");
  const target = join(root, "project");
  mkdirSync(target);
  const handoff = () =>
    runCli([
      "handoff",
      source.path,
      "--to",
      "hermes",
      "--cwd",
      realpathSync(target),
      "--claude-home",
      join(root, "claude"),
      "--hermes-home",
      hermesHome,
    ], { SESSION_BRIDGE_HOME: join(root, "bridge") });
  return { root, hermesHome, db, handoff };
}

/** `argv` started, once it has said "held" on stdout (it holds what it was started to hold by then). */
async function holding(argv: string[]): Promise<ChildProcess> {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "ignore"] });
  const [data] = await once(child.stdout!, "data");
  assert.equal(String(data).trim(), "held");
  return child;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill();
  await exited;
}

/** Field 22 of /proc/<pid>/stat, as Hermes records it in gateway.pid. */
function startTime(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

async function refusedWhileRunning(w: ReturnType<typeof world>, pid: number | undefined, by: string) {
  const before = await sha256(w.db);
  const r = await w.handoff();
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `Hermes's gateway \\(${
        pid ? `pid ${pid}, ` : ""
      }found by its ${by}\\) is running for .*hermes and is the ` +
        `one writer of its state\\.db: stop it \\(HERMES_HOME=\\S+ hermes gateway stop\\)`,
    ),
  );
  assert.equal(await sha256(w.db), before, "nothing was written");
}

test(
  "a handoff into Hermes refuses while its gateway holds gateway.lock, naming what to stop",
  { skip },
  async () => {
    const w = world();
    const lock = join(w.hermesHome, "gateway.lock");
    writeFileSync(lock, "");
    // One process holding the lock as Hermes's gateway holds it (acquire_gateway_runtime_lock).
    const gateway = await holding([
      "python3",
      "-c",
      "import fcntl, sys, time\nf = open(sys.argv[1], 'a+')\nfcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)\n" +
      "print('held', flush=True)\ntime.sleep(600)",
      lock,
    ]);
    try {
      await refusedWhileRunning(w, gateway.pid, "gateway\\.lock");
    } finally {
      await stop(gateway);
    }
    const r = await w.handoff();
    assert.equal(r.code, 0, `once the gateway is gone the lock file alone stops nothing: ${r.stderr}`);
  },
);

test(
  "the undo of a handoff into Hermes refuses while its gateway runs, --force and --dry-run alike, and lands once it stops",
  { skip },
  async () => {
    const w = world();
    const handedOff = await w.handoff();
    assert.equal(handedOff.code, 0, handedOff.stderr);
    const env = { SESSION_BRIDGE_HOME: join(w.root, "bridge") };
    const after = await sha256(w.db);
    const gateway = await holding(["sh", "-c", "echo held; exec sleep 600"]);
    writeFileSync(
      join(w.hermesHome, "gateway.pid"),
      JSON.stringify({ pid: gateway.pid, kind: "hermes-gateway", start_time: startTime(gateway.pid!) }),
    );
    const stopLine =
      /Hermes's gateway \(pid \d+, found by its gateway\.pid\) .*hermes gateway stop\), undo, then/;
    try {
      for (const args of [["undo", "--last"], ["undo", "--last", "--force"]]) {
        const r = await runCli(args, env);
        assert.equal(r.code, 1, r.stderr);
        assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
        assert.match(r.stderr, stopLine);
        assert.equal(await sha256(w.db), after, "nothing was written");
      }
      const dry = await runCli(["undo", "--last", "--dry-run"], env);
      assert.equal(dry.code, 1, dry.stderr + dry.stdout);
      assert.match(dry.stdout + dry.stderr, stopLine);
    } finally {
      await stop(gateway);
    }
    const undone = await runCli(["undo", "--last"], env);
    assert.equal(undone.code, 0, undone.stderr);
  },
);

test(
  "a gateway.pid naming a live process started when it says refuses a handoff; a reused or dead pid does not",
  { skip },
  async () => {
    const w = world();
    const gateway = await holding(["sh", "-c", "echo held; exec sleep 600"]);
    const pid = gateway.pid!;
    const record = (start: number) =>
      writeFileSync(
        join(w.hermesHome, "gateway.pid"),
        JSON.stringify({
          pid,
          kind: "hermes-gateway",
          argv: ["hermes", "gateway", "run"],
          start_time: start,
        }),
      );
    try {
      record(startTime(pid));
      await refusedWhileRunning(w, pid, "gateway\\.pid");
      // The same pid, another start: the OS gave the gateway's pid to another process since it died.
      record(startTime(pid) + 1);
      const reused = await w.handoff();
      assert.equal(reused.code, 0, reused.stderr);
    } finally {
      await stop(gateway);
    }
    // An older release's bare pid, its process gone.
    writeFileSync(join(w.hermesHome, "gateway.pid"), String(pid));
    const dead = await w.handoff();
    assert.equal(dead.code, 0, dead.stderr);
  },
);
