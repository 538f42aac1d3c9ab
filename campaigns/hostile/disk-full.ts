/**
 * A full disk in each home: the target harness's home, session-bridge's own folder, or both, on a size-limited
 * tmpfs left with a seeded number of bytes free (from none to more than the command takes), then a handoff, or
 * the undo of one made with room. It must land whole (exit 0) or be refused saying the disk is full, with
 * nothing written; with the room given back, what landed undoes cleanly. Needs root to mount; skipped
 * otherwise, saying why.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { freeBytes, mountTmpfs, TMPFS_SKIP, unmount } from "../../tests/helpers/tmpfs.ts";
import { onPrivateCopy } from "../integrity.ts";
import { caseFindings, type Finding } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import {
  createWorld,
  databasesOf,
  handoffArgs,
  listing,
  operationOf,
  outcomeOf,
  type Run,
  runCli,
  type World,
} from "./world.ts";

const PAGE = 4096;
/** Room left free: up to this, past what a handoff of the fixture takes in any home (backups included). */
const MOST_ROOM = 1024 * 1024;
const FULL = ["target", "bridge", "both"] as const;

/** Leaves `free` bytes free on the tmpfs at `mount`, a filler file taking the rest. */
function leaveFree(mount: string, free: number): void {
  const filler = join(mount, "filler");
  rmSync(filler, { force: true });
  writeFileSync(filler, Buffer.alloc(Math.max(freeBytes(mount) - free, 0)));
}

/**
 * What a refusal must leave as it was: the target's files (not its databases' own, which SQLite may rewrite
 * as it likes) and the rows of the tables its sessions are in.
 */
function targetState(world: World, to: string): string {
  const home = world.homes[to]!;
  const databases = databasesOf(world, to);
  const ownFiles = new Set(
    databases.flatMap((d) =>
      ["", "-wal", "-shm", "-journal"].map((suffix) => relative(home, d.path + suffix))
    ),
  );
  const files = Object.entries(listing(home)).filter(([p]) => !ownFiles.has(p));
  const rows = databases.map((d) =>
    onPrivateCopy(
      d.path,
      (db) =>
        d.tables.map((table) =>
          (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n
        ),
    )
  );
  return JSON.stringify({ files, rows });
}

const DISK_FULL = /the disk is full|larger than the limit/;

export const diskFull: CampaignKind = {
  unavailable: () => TMPFS_SKIP || undefined,
  cases: (cast) => FULL.length * cast.members.length,
  async run(root, cast, index, random) {
    const { members } = cast;
    const to = members[index % members.length]!.harness.name;
    const full = FULL[Math.floor(index / members.length) % FULL.length]!;
    const command = random.int(0, 2) === 0 ? "undo" : "handoff";
    const room = random.int(0, MOST_ROOM / PAGE) * PAGE;
    const mount = join(root, "disk");
    mkdirSync(mount);
    if (!mountTmpfs(mount, "24m")) throw new Error(`cannot mount a tmpfs at ${mount}`);
    try {
      const harnesses = full === "bridge" ? [] : [to];
      const bridge = full !== "target";
      const world = createWorld(root, cast, { folder: mount, harnesses, bridge });
      const onDisk = [...harnesses, ...(bridge ? ["bridge"] : [])];
      const outsideBefore = listing(world.outside);
      const runs: Run[] = [];
      let op: string | undefined;
      if (command === "undo") {
        const handed = await runCli(world, handoffArgs(world, to));
        runs.push(handed);
        op = operationOf(handed);
      }
      const before = targetState(world, to);
      leaveFree(mount, room);
      const r = await runCli(world, command === "undo" && op ? ["undo", op] : handoffArgs(world, to));
      runs.push(r);
      const findings: Finding[] = [];
      if (r.code === 1 && !DISK_FULL.test(r.stderr)) {
        findings.push({
          kind: "outcome",
          detail: `${command} refused without saying the disk is full: ${r.stderr.trim()}`,
        });
      }
      if (r.code !== 0 && targetState(world, to) !== before) {
        findings.push({ kind: "outcome", detail: `a refused ${command} changed ${world.homes[to]}` });
      }
      // As the full disk left it, then with the room given back and what landed undone.
      findings.push(...caseFindings(world, outsideBefore, runs));
      rmSync(join(mount, "filler"), { force: true });
      if (command === "handoff") op = operationOf(r);
      else if (r.code === 0) op = undefined;
      if (op) runs.push(await runCli(world, ["undo", op]));
      const seen = new Set(findings.map((f) => f.detail));
      findings.push(...caseFindings(world, outsideBefore, runs).filter((f) => !seen.has(f.detail)));
      return {
        label: `${command} into ${to}, ${room} bytes free for ${onDisk.join(" and ")}`,
        outcome: `${command} ${outcomeOf(r)}`,
        findings,
      };
    } finally {
      unmount(mount);
    }
  },
};
