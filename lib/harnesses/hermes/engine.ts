/**
 * One Hermes turn, non-interactively: `hermes chat -Q [--resume ID] --query=PROMPT`. Quiet mode prints the
 * answer and a `session_id: <id>` line (on stderr, or on stdout in some versions); a resumed turn may open
 * with a "Resumed session" banner, which is not part of the answer.
 */
import type { EngineSpec } from "../types.ts";
import { hermesReply } from "./certify/run.ts";

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
  idFrom: (line) => /^session_id:\s*(\S+)\s*$/.exec(line)?.[1],
  replyFrom: (stdout) => hermesReply(stdout),
};
