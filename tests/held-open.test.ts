/**
 * The live marker's second source: a session file another process holds open (a harness running it), found
 * through /proc/<pid>/fd on Linux. A child process holds a real fixture session's file open; the TUI's listing
 * marks that session live and names the process, and stops once the process has exited.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { App } from "../lib/tui/app.tsx";
import { heldOpen } from "../lib/io/held-open.ts";
import { stores } from "../lib/mod.ts";
import { listedRows, tuiEnv, tuiHomes } from "./helpers/tui-homes.ts";
import { tempDir } from "./helpers/tmp.ts";
import { draw, until } from "./helpers/frames.ts";

const skip = process.platform === "linux" ? false : "open files are read from /proc, on Linux only";

/** A shell that opens `file` on descriptor 3, says so, then waits (as sleep, the same process) to be stopped. */
async function holder(file: string): Promise<ChildProcess> {
  const child = spawn("sh", ["-c", 'exec 3<"$1"; echo held; exec sleep 600', "sh", file], {
    stdio: ["ignore", "pipe", "ignore"],
  });
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

test("heldOpen names the process holding a file open, and none once it has exited", { skip }, async () => {
  const homes = tuiHomes(tempDir("sb-held-"));
  const context = {
    ...stores({ env: tuiEnv(homes) }),
    env: tuiEnv(homes),
    targetVersions: {},
    cwd: homes.project,
  };
  const codex = (await listedRows({ ...context, now: () => new Date() })).rows.find((r) =>
    r.summary.harness === "codex"
  )!;
  const path = codex.summary.path;
  const child = await holder(path);
  try {
    const held = heldOpen([path, `${path}.not-open`]);
    assert.deepEqual([...held.keys()], [path]);
    assert.equal(held.get(path)!.pid, child.pid);
  } finally {
    await stop(child);
  }
  assert.equal(heldOpen([path]).size, 0);
});

test(
  "a session file a process holds open is live in the TUI, named by that process, though unchanged for hours",
  {
    skip,
  },
  async () => {
    const homes = tuiHomes(tempDir("sb-held-"));
    const env = tuiEnv(homes);
    const context = {
      ...stores({ env }),
      env,
      targetVersions: {},
      cwd: homes.project,
      now: () => new Date(),
    };
    const before = (await listedRows(context)).rows;
    const claude = before.find((r) => r.summary.harness === "claude-code")!;
    // Written hours ago: not live by its time.
    const hoursAgo = new Date(Date.now() - 5 * 3_600_000);
    utimesSync(claude.summary.path, hoursAgo, hoursAgo);
    assert.equal((await listedRows(context)).rows.find((r) => r.key === claude.key)!.live, false);
    const child = await holder(claude.summary.path);
    // Hermes holds its state.db open for every session in it: that says nothing of any one of them.
    const database = await holder(join(homes.hermes, "state.db"));
    try {
      const rows = (await listedRows(context)).rows;
      const held = rows.find((r) => r.key === claude.key)!;
      assert.equal(held.live, true);
      assert.equal(held.heldBy!.pid, child.pid);
      // The shell, or the sleep it became (the same process).
      assert.match(held.heldBy!.command, /^(sh|sleep)$/);
      assert.ok(rows.filter((r) => r.key !== claude.key).every((r) => r.heldBy === undefined));
      assert.equal(rows.find((r) => r.summary.harness === "hermes")!.live, false);
      const ui = draw(createElement(App, { context, size: { columns: 80, rows: 24 } }));
      try {
        await until(ui, (f) => /live \(open in (sh|sleep), pid \d/.test(f));
      } finally {
        ui.unmount();
      }
    } finally {
      await stop(child);
      await stop(database);
    }
  },
);
