/**
 * OpenCode under test: a private HOME and XDG folders, and the fake Chat Completions server (full mode), nothing
 * (structure) or the user's providers (real). One-shot turns are `opencode run --format json`, the prompt on
 * stdin; a resume is the same with `--session <id>`. Listed means OpenCode's own `opencode session list`, run in
 * the cwd, names the session. Interactive seeding types into the real TUI through tmux (tui.ts).
 */
import { join } from "node:path";
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
import {
  offlineConfig,
  opencodeDataHome,
  opencodeEnv,
  opencodeFolders,
  parseRunEvents,
  runOpencode,
  writeOpencodeConfig,
} from "./run.ts";
import { opencodeScript, turnRequests } from "./sent.ts";
import { type OpencodeTui, startOpencodeTui } from "./tui.ts";
import { userOpencodeHome } from "./user.ts";
import { openCodeDatabase } from "../resume.ts";
import { OPENCODE_CONFIG_VARIABLES } from "../config.ts";

export const opencodeDriver: HarnessDriver = {
  id: "opencode",
  command: "opencode",
  async open({ work, bin, mode, env, homeVariables, window }) {
    const folders = opencodeFolders(join(work, "opencode"));
    const dataHome = opencodeDataHome(folders);
    const database = openCodeDatabase(dataHome);
    const logPath = join(work, "chat-requests.jsonl");
    const server = mode === "full"
      ? await startFakeChatCompletions({ logPath, script: opencodeScript, window })
      : undefined;
    let runEnv: Record<string, string>;
    if (mode === "real") runEnv = userOpencodeHome(folders, env, homeVariables);
    else {
      writeOpencodeConfig(folders, offlineConfig(server?.url ?? UNREACHABLE_URL));
      runEnv = opencodeEnv(folders, env.PATH);
    }
    const run = (cwd: string, args: string[], prompt?: string) =>
      runOpencode(bin, args, { cwd, env: runEnv, ...(prompt === undefined ? {} : { prompt }) });

    /** One `opencode run` turn; the session id is the one its JSON events name. */
    const oneShot = async (cwd: string, args: string[], prompt: string): Promise<Turn & { id?: string }> => {
      const r = await run(cwd, ["run", "--format", "json", ...args], prompt);
      const out = parseRunEvents(r.stdout);
      const ok = r.code === 0 && !r.timedOut && out.error === undefined;
      return {
        ok,
        detail: ok ? "" : `exit ${r.code}${r.timedOut ? " (timed out)" : ""}: ${tail(out.error ?? r.stderr)}`,
        reply: out.reply.trim(),
        ...(out.sessionId ? { id: out.sessionId } : {}),
      };
    };

    /** Runs `drive` against the real TUI in `cwd`, then leaves it. */
    const typed = (cwd: string, drive: (tui: OpencodeTui) => Promise<string>): Promise<Seeded> =>
      typedSeeding(() => startOpencodeTui({ bin, database, cwd, env: runEnv }), drive);

    return {
      id: "opencode",
      homes: () => ({ opencode: dataHome }),
      configEnv: () =>
        Object.fromEntries(OPENCODE_CONFIG_VARIABLES.flatMap((v) => runEnv[v] ? [[v, runEnv[v]]] : [])),
      async warmUp(cwd) {
        // A user's OpenCode has its opencode.db; listing sessions creates it (every migration applied) without a
        // model call, as any first run would.
        const r = await run(cwd, ["session", "list"]);
        if (r.code !== 0) throw new Error(`opencode session list failed: ${tail(r.stderr || r.stdout)}`);
      },
      seed: (cwd, prompts) =>
        seedTwoOneShots("opencode", (args, prompt) => oneShot(cwd, args, prompt), prompts, (id) => [
          "--session",
          id,
        ], "its events"),
      seedInteractive: (cwd, prompts) => typed(cwd, (tui) => typeTwoTurns(tui, prompts)),
      seedInterrupted: (cwd, prompts) =>
        typed(cwd, (tui) =>
          typeInterrupted(tui, prompts, {
            // Typed while the call runs: the TUI shows it as QUEUED under the running turn.
            queue: (tui, words) => tui.submit(words),
            interrupt: (tui) => tui.interrupt(),
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
      requestCount: () => turnRequests(logPath).length,
      lastRequest: () => sentChatMessages(turnRequests(logPath).at(-1)?.messages ?? []),
      async listed(sessionId, cwd) {
        const r = await run(cwd, ["session", "list", "--format", "json"]);
        return r.code === 0 && r.stdout.includes(JSON.stringify(sessionId));
      },
      close: async () => await server?.close(),
    };
  },
};
