/**
 * One Codex turn, non-interactively: `codex exec --json [resume ID]`. Its first event (`thread.started`)
 * names the thread, so an alias is bound before the model answers; the answer is the last agent message. The
 * effort it ran with is read back from its thread's row (effort.ts): its output does not say it. A turn the
 * caller does not want kept runs `--ephemeral`.
 */
import type { EngineSpec } from "../types.ts";
import { codexLiveEvents } from "./live-events.ts";
import { storedEffort } from "./effort.ts";
import { jsonLine, type JsonRecord } from "../../io/json-line.ts";
import { argumentRoom } from "../../io/argument-limit.ts";

export const codexEngine: EngineSpec = {
  liveEvents: codexLiveEvents,
  effortOf: storedEffort,
  command: "codex",
  supports: ["effort", "ephemeral"],
  promptBytes: argumentRoom(),
  args: ({ prompt, resume, model, effort, ephemeral }) => [
    "exec",
    // Checked on 0.171.0 (tests/fit-live.test.ts): the turn runs, and no rollout is written.
    ...(ephemeral ? ["--ephemeral"] : []),
    "--skip-git-repo-check",
    "--json",
    ...(model ? ["-m", model] : []),
    // A config override, TOML: the value quoted as a string.
    ...(effort ? ["-c", `model_reasoning_effort=${JSON.stringify(effort)}`] : []),
    ...(resume ? ["resume", resume] : []),
    // After `--`, a prompt that starts with a dash is still the prompt.
    "--",
    prompt,
  ],
  idFrom(line, stream) {
    const event = stream === 1 ? jsonLine(line) : undefined;
    return event?.type === "thread.started" && typeof event.thread_id === "string"
      ? event.thread_id
      : undefined;
  },
  replyFrom(stdout) {
    let reply = "";
    for (const line of stdout.split("\n")) {
      const event = jsonLine(line);
      const item = event?.type === "item.completed" ? event.item as JsonRecord | undefined : undefined;
      if (item?.type === "agent_message" && typeof item.text === "string") reply = item.text;
    }
    return reply;
  },
};
