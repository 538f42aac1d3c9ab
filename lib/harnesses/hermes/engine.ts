/**
 * One Hermes turn, non-interactively: `hermes chat -Q [--resume ID] --query=PROMPT`. Quiet mode prints the
 * answer and a `session_id: <id>` line (on stderr, or on stdout in some versions); a resumed turn may open
 * with a "Resumed session" banner, which is not part of the answer. A turn not to be kept is deleted after it,
 * by `hermes sessions delete --yes ID`.
 */
import type { EngineSpec } from "../types.ts";
import { hermesReply } from "./certify/run.ts";
import { argumentRoom } from "../../io/argument-limit.ts";

export const hermesEngine: EngineSpec = {
  command: "hermes",
  promptBytes: argumentRoom("--query="),
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
  // No flag for a run it does not keep: `sessions delete --yes` removes the session, its messages and their
  // search index, printing "Deleted session '<id>'." and exiting 0 whether or not it found it (0.19.0).
  forget: {
    args: (id) => ["sessions", "delete", "--yes", id],
    deleted: ({ code, stdout }) => code === 0 && /^Deleted session /m.test(stdout),
  },
};
