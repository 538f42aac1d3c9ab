/**
 * Hermes's gateway owns its home's `state.db`: newer releases document it as the one writer, after second
 * writers corrupted databases. A handoff refuses while one runs, naming what to stop. Found as Hermes finds it
 * (gateway/status.py `get_running_pid`, 0.14.0 to 0.19.0): the running gateway holds an flock on
 * `<home>/gateway.lock` (released by the OS when it dies), and records itself in `<home>/gateway.pid`
 * (`{"pid", "kind": "hermes-gateway", "argv", "start_time"}`, or a bare pid from older releases), where
 * `start_time` is field 22 of /proc/<pid>/stat: a pid the OS has since given to another process does not count.
 * The lock is read from /proc/locks (Linux); elsewhere the pid file alone tells, by whether its pid is alive.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../../io/shell.ts";
import { homeEnvironment } from "../homes.ts";
import { HERMES_HOME } from "./home.ts";

export interface RunningGateway {
  /** Its process id; none when it runs in another pid namespace (a container), whose pids are not ours. */
  pid?: number;
  /** How it was found: the lock it holds, or its pid file naming a live process. */
  by: "gateway.lock" | "gateway.pid";
}

/** The gateway running for Hermes home `home`, if one is. */
export function runningGateway(home: string): RunningGateway | undefined {
  const locker = lockHolder(join(home, "gateway.lock"));
  if (locker !== undefined) return { ...(locker > 0 ? { pid: locker } : {}), by: "gateway.lock" };
  const recorded = pidRecord(join(home, "gateway.pid"));
  if (!recorded || !alive(recorded.pid)) return undefined;
  const started = startTime(recorded.pid);
  if (recorded.startTime !== undefined && started !== undefined && started !== recorded.startTime) {
    return undefined;
  }
  return { pid: recorded.pid, by: "gateway.pid" };
}

/**
 * Why a handoff into `home` (or the undo of one, `doing`) must wait, if its gateway runs: one line naming the
 * gateway and the command that stops it, with HERMES_HOME set when `home` (a root or a profile's folder) is not
 * the default one.
 */
export function gatewayRefusal(
  home: string,
  env: NodeJS.ProcessEnv,
  doing: "hand off" | "undo" = "hand off",
): string | undefined {
  const gateway = runningGateway(home);
  if (!gateway) return undefined;
  const assignments = Object.entries(homeEnvironment(HERMES_HOME, home, env)).map(([name, value]) =>
    `${name}=${shellQuote(value)} `
  );
  const which = gateway.pid ? `pid ${gateway.pid}, ` : "";
  return `Hermes's gateway (${which}found by its ${gateway.by}) is running for ${home} and is the one writer ` +
    `of its state.db: stop it (${assignments.join("")}hermes gateway stop), ${doing}, then start it again`;
}

/** One line of /proc/locks: `1: FLOCK  ADVISORY  WRITE 1234 08:02:131074 0 EOF` (device in hex, inode). */
const LOCK_LINE = /^\d+:\s+(?:->\s+)?FLOCK\s+\S+\s+\S+\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/;

/**
 * The pid holding an flock on `file`, from /proc/locks (0 when the holder is in another pid namespace);
 * undefined when none does or it cannot be told.
 */
function lockHolder(file: string): number | undefined {
  const stat = statSync(file, { throwIfNoEntry: false, bigint: true });
  if (!stat?.isFile()) return undefined;
  let locks: string;
  try {
    locks = readFileSync("/proc/locks", "utf8");
  } catch {
    return undefined;
  }
  // Linux's encoding of a device number (new_encode_dev): the major in bits 8-19, the minor around it.
  const major = (stat.dev >> 8n) & 0xfffn;
  const minor = (stat.dev & 0xffn) | ((stat.dev >> 12n) & 0xfff00n);
  for (const line of locks.split("\n")) {
    const m = LOCK_LINE.exec(line);
    if (!m || BigInt(`0x${m[2]}`) !== major || BigInt(`0x${m[3]}`) !== minor || BigInt(m[4]!) !== stat.ino) {
      continue;
    }
    // A holder in another pid namespace shows as no pid: the lock is held all the same.
    return Math.max(0, Number(m[1]));
  }
  return undefined;
}

/** The pid file as Hermes writes it (JSON) or wrote it (a bare number); undefined when it is neither. */
function pidRecord(file: string): { pid: number; startTime?: number } | undefined {
  let text: string;
  try {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
    text = readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const record = JSON.parse(text) as { pid?: unknown; start_time?: unknown };
    if (!Number.isSafeInteger(record.pid) || (record.pid as number) <= 0) return undefined;
    return {
      pid: record.pid as number,
      ...(Number.isSafeInteger(record.start_time) ? { startTime: record.start_time as number } : {}),
    };
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and parentheses). */
function startTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const value = Number(fields[19]);
    return Number.isSafeInteger(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
