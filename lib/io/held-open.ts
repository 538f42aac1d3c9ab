/**
 * Which files another process holds open, and which process: on Linux each open descriptor is a link under
 * /proc/<pid>/fd naming its file; elsewhere nothing is found (there is no cheap equivalent to read). Processes
 * of other users cannot be read and are passed over.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";

export interface Holder {
  pid: number;
  /** The process's command name (/proc/<pid>/comm), e.g. `codex`. */
  command: string;
}

/**
 * At most this many descriptors are read in all: a desktop has a few thousand, and a machine with far more
 * should cost a fraction of a second, not an unbounded scan.
 */
const MAX_DESCRIPTORS = 20_000;

/** The holder of each of `paths` that some other process has open, by the path as given. */
export function heldOpen(paths: readonly string[]): Map<string, Holder> {
  const held = new Map<string, Holder>();
  if (process.platform !== "linux" || paths.length === 0) return held;
  // The links name files with every symlink resolved.
  const wanted = new Map(paths.map((path) => [real(path) ?? path, path]));
  let budget = MAX_DESCRIPTORS;
  for (const pid of entries("/proc").filter((name) => /^\d+$/.test(name))) {
    if (budget <= 0 || held.size === wanted.size) break;
    if (Number(pid) === process.pid) continue;
    for (const fd of entries(`/proc/${pid}/fd`)) {
      if (budget-- <= 0) break;
      const path = wanted.get(link(`/proc/${pid}/fd/${fd}`) ?? "");
      if (path !== undefined && !held.has(path)) {
        held.set(path, { pid: Number(pid), command: commandOf(pid) });
      }
    }
  }
  return held;
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** A folder's names, or none when it cannot be read (another user's process, one that just exited). */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function link(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "a process";
  }
}
