/**
 * Copilot CLI under test: a private HOME, COPILOT_HOME and TMPDIR, and the fake Chat Completions server as its
 * provider (full mode), nothing (structure) or the user's providers and login (real). One-shot turns are
 * `copilot --allow-all-tools --output-format json --prompt=TEXT`, a resume the same with `--resume=<id>`.
 * Listed means Copilot's own session list (the TUI's Sessions tab, run in the cwd) finds the session by its id.
 * Interactive seeding types into the real TUI through tmux (tui.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startFakeChatCompletions } from "../../../certify-kit/fake-servers/chat-completions.ts";
import { sentChatMessages } from "../../../certify-kit/chat-requests.ts";
import { UNREACHABLE_URL } from "../../../certify-kit/request-log.ts";
import { tail } from "../../../certify-kit/spawn.ts";
import type { HarnessDriver, Seeded, Turn } from "../../../certify-kit/driver.ts";
import {
  seedTwoOneShots,
  typedSeeding,
  typeInterrupted,
  typeTwoTurns,
} from "../../../certify-kit/seed-scripts.ts";
import { jsonLine, recordOf } from "../../../io/json-line.ts";
import { sampleFor } from "../../../samples.ts";
import { copilotEventsFile } from "../home.ts";
import { parsePromptOutput } from "../prompt-output.ts";
import { samples } from "../samples.ts";
import { copilotEnv, copilotFolders, ONE_SHOT_FLAGS, runCopilot } from "./run.ts";
import { copilotScript, turnRequests } from "./sent.ts";
import { type CopilotTui, listedInSessionsTab, startCopilotTui } from "./tui.ts";
import { userCopilotHome } from "./user.ts";

/** The variables outside COPILOT_HOME that name the model a resumed session runs (its provider's, or its own). */
const MODEL_VARIABLES = ["COPILOT_MODEL", "COPILOT_PROVIDER_MODEL_ID", "COPILOT_PROVIDER_WIRE_MODEL"];

export const copilotCliDriver: HarnessDriver = {
  id: "copilot-cli",
  command: "copilot",
  async open({ work, bin, version, mode, env, homeVariables, window }) {
    const folders = copilotFolders(join(work, "copilot-cli"));
    const logPath = join(work, "chat-requests.jsonl");
    const server = mode === "full"
      ? await startFakeChatCompletions({ logPath, script: copilotScript, window })
      : undefined;
    const runEnv = mode === "real"
      ? userCopilotHome(folders, env, homeVariables)
      : copilotEnv(folders, server?.url ?? UNREACHABLE_URL, env);
    const tuiOptions = (cwd: string) => ({ bin, copilotHome: folders.copilot, cwd, env: runEnv });

    /** One `copilot -p` turn; the session id is the one its closing `result` line names. */
    const oneShot = async (cwd: string, args: string[], prompt: string): Promise<Turn & { id?: string }> => {
      const r = await runCopilot(bin, cwd, [...ONE_SHOT_FLAGS, ...args, `--prompt=${prompt}`], runEnv);
      const out = parsePromptOutput(r.stdout);
      const ok = r.code === 0 && !r.timedOut && out.error === undefined;
      return {
        ok,
        detail: ok ? "" : `exit ${r.code}${r.timedOut ? " (timed out)" : ""}: ${tail(out.error ?? r.stderr)}`,
        reply: out.reply.trim(),
        ...(out.sessionId ? { id: out.sessionId } : {}),
      };
    };

    /** Runs `drive` against the real TUI in `cwd`, then leaves it. */
    const typed = (cwd: string, drive: (tui: CopilotTui) => Promise<string>): Promise<Seeded> =>
      typedSeeding(() => startCopilotTui(tuiOptions(cwd)), drive);

    return {
      id: "copilot-cli",
      homes: () => ({ "copilot-cli": folders.copilot }),
      configEnv: () => Object.fromEntries(MODEL_VARIABLES.flatMap((v) => runEnv[v] ? [[v, runEnv[v]]] : [])),
      async warmUp(cwd) {
        // Without a model, a session this version wrote (captured) stands in for the user's earlier one.
        if (mode === "structure") return placeSample(folders.copilot, version);
        const turn = await oneShot(cwd, [], "Hello.");
        if (!turn.ok) throw new Error(`copilot first run failed: ${turn.detail}`);
      },
      seed: (cwd, prompts) =>
        seedTwoOneShots(
          "copilot",
          (args, prompt) => oneShot(cwd, args, prompt),
          prompts,
          (id) => [`--resume=${id}`],
          "its result line",
        ),
      seedInteractive: (cwd, prompts) => typed(cwd, (tui) => typeTwoTurns(tui, prompts)),
      seedInterrupted: (cwd, prompts) =>
        typed(cwd, (tui) =>
          typeInterrupted(tui, prompts, {
            // Enqueued while the call runs (Enter would send them at once and move the call to the background).
            queue: (tui, words) => tui.enqueue(words),
            interrupt: (tui) => tui.interrupt(),
          })),
      async resume(cwd, sessionId, prompt) {
        const turn = await oneShot(cwd, [`--resume=${sessionId}`], prompt);
        if (turn.ok && turn.id !== sessionId) {
          return {
            ...turn,
            ok: false,
            detail: `resumed as session ${turn.id ?? "(none)"}, not ${sessionId}`,
          };
        }
        return turn;
      },
      requestCount: () => turnRequests(logPath).length,
      lastRequest: () => sentChatMessages(turnRequests(logPath).at(-1)?.messages ?? []),
      listed: (sessionId, cwd) => listedInSessionsTab(tuiOptions(cwd), sessionId),
      close: async () => await server?.close(),
    };
  },
};

/** The captured session of `version` (or the nearest) in the store, in its own folder, as Copilot left it. */
function placeSample(copilotHome: string, version: string): void {
  const sample = sampleFor(samples, version);
  const start = recordOf(jsonLine(sample.lines[0] ?? "")?.data);
  if (typeof start.sessionId !== "string") throw new Error(`${sample.source} does not start a session`);
  const path = copilotEventsFile(copilotHome, start.sessionId);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${sample.lines.join("\n")}\n`);
}
