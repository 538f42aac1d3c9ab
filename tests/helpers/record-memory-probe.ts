/**
 * Run in a fresh process by tests/jsonl.test.ts: reads the Claude Code session at argv[2] with the real reader,
 * under the record limit SESSION_BRIDGE_MAX_RECORD sets, and prints the process's peak resident memory in
 * bytes. Nothing is timed.
 */
import { existsSync, readFileSync } from "node:fs";
import { readLimitsFrom } from "../../lib/io/jsonl.ts";
import { readClaudeSession } from "../../lib/harnesses/claude-code/read.ts";

/**
 * The peak of this process alone: Linux's VmHWM starts again at exec, where getrusage's maxrss keeps the
 * parent's peak from before the fork (a test runner's, far above what is measured here).
 */
function peakBytes(): number {
  const status = "/proc/self/status";
  const hwm = existsSync(status) ? /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(status, "utf8")) : null;
  return (hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS) * 1024;
}

const session = await readClaudeSession(process.argv[2]!, { limits: readLimitsFrom(process.env) });
console.log(JSON.stringify({ messages: session.messages.length, peak: peakBytes() }));
