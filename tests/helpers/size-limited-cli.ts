/**
 * The CLI run in a child process whose files may not grow past a size (`ulimit -f`, in KiB), with SIGXFSZ
 * ignored as Bun ignores it itself: a write past the limit fails with EFBIG instead of killing the process,
 * which is how a test meets a file system's size limit without root.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../../lib/runtime.ts";
import type { CliResult } from "./cli.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

export function sizeLimitedCli(limitKib: number, args: string[], env: Record<string, string>): CliResult {
  const [bin, ...pre] = scriptArgv(MAIN);
  const r = spawnSync("bash", [
    "-c",
    `trap '' XFSZ; ulimit -f ${limitKib}; exec "$@"`,
    "bash",
    bin!,
    ...pre,
    ...args,
  ], {
    encoding: "utf8",
    env: { ...process.env, SESSION_BRIDGE_DEBUG: "", ...env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
