/**
 * One Hermes turn, non-interactively: `hermes chat -Q [--resume ID] --query PROMPT`. Quiet mode prints the
 * answer on stdout and `session_id: <id>` on stderr.
 */
import type { EngineSpec } from "../types.ts";

export const hermesEngine: EngineSpec = {
  command: "hermes",
  args: ({ prompt, resume, model }) => [
    "chat",
    "-Q",
    ...(resume ? ["--resume", resume] : []),
    ...(model ? ["-m", model] : []),
    // One argument, so a prompt that starts with a dash is not taken for a flag.
    `--query=${prompt}`,
  ],
  idFrom: (line, stream) => stream === 2 ? /^session_id:\s*(\S+)\s*$/.exec(line)?.[1] : undefined,
  replyFrom: (stdout) => stdout.trim(),
};
