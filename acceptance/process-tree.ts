/**
 * The processes a capture started, found below its child in /proc (Linux; none elsewhere): the capture scripts
 * stop what a harness left running (a shell tool's `sleep`, a TUI's helpers) by pid, and only those.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** Every process below `pid` with its command line (one pass over /proc: parent links, then a walk down). */
export function descendants(pid: number): { pid: number; cmdline: string }[] {
  if (!existsSync("/proc")) return [];
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const found: { pid: number; cmdline: string }[] = [];
  const queue = [...(children.get(pid) ?? [])];
  for (let i = 0; i < queue.length; i++) {
    const child = queue[i] as number;
    found.push({ pid: child, cmdline: commandLine(child) });
    queue.push(...(children.get(child) ?? []));
  }
  return found;
}

/** A process's command line, words joined by spaces ("" once it has ended). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}
