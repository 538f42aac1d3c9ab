/**
 * Pi under test: a private HOME and agent folder (PI_CODING_AGENT_DIR), and the fake Chat Completions server
 * (full mode), nothing (structure) or the user's providers (real). One-shot turns are `pi --mode json`, the
 * prompt on stdin; a resume is the same with `--session <id>` (Pi looks the id up among the sessions of the
 * folder it runs in). Listed means Pi's own session picker (`pi -r`), run in the cwd, shows the session when its
 * id is searched for. Interactive seeding types into the real TUI through tmux (tui.ts).
 */
import { join } from "node:path";
import { startFakeChatCompletions } from "../../../certify-kit/fake-servers/chat-completions.ts";
import { loggedChatRequests, sentChatMessages } from "../../../certify-kit/chat-requests.ts";
import { UNREACHABLE_URL } from "../../../certify-kit/request-log.ts";
import { tail } from "../../../certify-kit/spawn.ts";
import type { HarnessDriver, Seeded, Turn } from "../../../certify-kit/driver.ts";
import {
  seedTwoOneShots,
  typedSeeding,
  typeInterrupted,
  typeTwoTurns,
} from "../../../certify-kit/seed-scripts.ts";
import { FAKE_MODEL, JSON_MODE, parseJsonEvents, piEnv, piFolders, runPi, writeOfflineAgent } from "./run.ts";
import { type PiTui, startPiTui } from "./tui.ts";
import { userPiHome } from "./user.ts";
import { pickerLists } from "./picker.ts";

export const piDriver: HarnessDriver = {
  id: "pi",
  command: "pi",
  async open({ work, bin, mode, env, homeVariables, window }) {
    const folders = piFolders(join(work, "pi"));
    const logPath = join(work, "chat-requests.jsonl");
    // Every request Pi streams is a conversation turn (its summaries, for compaction and branches, are not
    // asked for in a seeding).
    const server = mode === "full" ? await startFakeChatCompletions({ logPath, window }) : undefined;
    let runEnv: Record<string, string>;
    if (mode === "real") runEnv = userPiHome(folders, env, homeVariables);
    else {
      writeOfflineAgent(folders, server?.url ?? UNREACHABLE_URL);
      runEnv = piEnv(folders, env.PATH);
    }

    /** One `pi --mode json` turn; the session id is the one the header it prints first names. */
    const oneShot = async (cwd: string, args: string[], prompt: string): Promise<Turn & { id?: string }> => {
      const r = await runPi(bin, [...JSON_MODE, ...args], { cwd, env: runEnv, prompt });
      const out = parseJsonEvents(r.stdout);
      const ok = r.code === 0 && !r.timedOut && out.error === undefined;
      return {
        ok,
        detail: ok ? "" : `exit ${r.code}${r.timedOut ? " (timed out)" : ""}: ${tail(out.error ?? r.stderr)}`,
        reply: out.reply.trim(),
        ...(out.sessionId ? { id: out.sessionId } : {}),
      };
    };

    /** Runs `drive` against the real TUI in `cwd`, then leaves it. */
    const typed = (cwd: string, drive: (tui: PiTui) => Promise<string>): Promise<Seeded> =>
      typedSeeding(
        () => startPiTui({ bin, agent: folders.agent, model: FAKE_MODEL, cwd, env: runEnv }),
        drive,
      );

    return {
      id: "pi",
      homes: () => ({ pi: folders.agent }),
      async warmUp(cwd) {
        // A first run writes auth.json (`{}`) in the agent folder; listing the models does it without a model call.
        const r = await runPi(bin, ["--list-models"], { cwd, env: runEnv });
        if (r.code !== 0) throw new Error(`pi --list-models failed: ${tail(r.stderr || r.stdout)}`);
      },
      seed: (cwd, prompts) =>
        seedTwoOneShots(
          "pi",
          (args, prompt) => oneShot(cwd, args, prompt),
          prompts,
          (id) => ["--session", id],
          "the session header of its output",
        ),
      seedInteractive: (cwd, prompts) => typed(cwd, (tui) => typeTwoTurns(tui, prompts)),
      seedInterrupted: (cwd, prompts) =>
        typed(cwd, (tui) =>
          typeInterrupted(tui, prompts, {
            // Typed while the call runs: Pi queues it as a steering message, shown under the editor.
            queue: (tui, words) => tui.submit(words),
            // Escape aborts the call and hands the queued words back to the editor; sent, they are a new turn.
            interrupt: (tui, queued) => tui.interrupt(queued),
          })),
      async resume(cwd, sessionId, prompt) {
        const turn = await oneShot(cwd, ["--session", sessionId], prompt);
        if (turn.ok && turn.id !== sessionId) {
          return {
            ...turn,
            ok: false,
            detail: `resumed as session ${turn.id ?? "(none)"}, not ${sessionId}`,
          };
        }
        return turn;
      },
      requestCount: () => loggedChatRequests(logPath).length,
      lastRequest: () => sentChatMessages(loggedChatRequests(logPath).at(-1)?.messages ?? []),
      listed: (sessionId, cwd) => pickerLists({ bin, cwd, env: runEnv }, sessionId),
      close: async () => await server?.close(),
    };
  },
};
