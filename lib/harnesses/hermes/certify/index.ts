/**
 * Hermes Agent under test: a private home, and the fake Chat Completions server (full mode), nothing
 * (structure) or the user's providers (real). Listed means `hermes sessions list` shows the id. Interactive
 * seeding types into the real `hermes` TUI through tmux (tui.ts).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  type ChatRequest,
  startFakeChatCompletions,
} from "../../../certify-kit/fake-servers/chat-completions.ts";
import { loggedChatRequests, sentChatMessages } from "../../../certify-kit/chat-requests.ts";
import { UNREACHABLE_URL } from "../../../certify-kit/request-log.ts";
import { tail } from "../../../certify-kit/spawn.ts";
import type { HarnessDriver, Seeded, Turn } from "../../../certify-kit/driver.ts";
import { type HermesTui, openHermesTui } from "./tui.ts";
import { hermesEnv, hermesReply, offlineConfig, runHermes, writeHermesHome } from "./run.ts";
import { userHermesHome } from "./user.ts";

export const hermesDriver: HarnessDriver = {
  id: "hermes",
  command: "hermes",
  async open({ work, bin, version, mode, env, homeVariables, window }) {
    const home = join(work, "hermes-user");
    const hermesHome = join(home, ".hermes");
    const tmp = join(work, "hermes-tmp");
    mkdirSync(tmp, { recursive: true });
    const logPath = join(work, "chat-requests.jsonl");
    const server = mode === "full" ? await startFakeChatCompletions({ logPath, window }) : undefined;
    let runEnv: Record<string, string>;
    if (mode === "real") runEnv = userHermesHome(home, hermesHome, tmp, version, env, homeVariables);
    else {
      writeHermesHome(hermesHome, offlineConfig(server?.url ?? UNREACHABLE_URL), version);
      runEnv = hermesEnv(bin, home, hermesHome, tmp);
    }
    const run = (cwd: string, args: string[]) => runHermes(bin, args, { cwd, env: runEnv });
    const chat = async (cwd: string, args: string[]): Promise<Turn & { id?: string }> => {
      const r = await run(cwd, ["chat", "-Q", ...args]);
      const ok = r.code === 0 && !r.timedOut;
      return {
        ok,
        detail: ok ? "" : `exit ${r.code}${r.timedOut ? " (timed out)" : ""}: ${tail(r.stderr, 500)}`,
        reply: hermesReply(r.stdout),
        ...(r.sessionId ? { id: r.sessionId } : {}),
      };
    };

    /** Turns typed into the TUI (tools allowed, as `--yolo` allows them for one-shot runs), then `/exit`. */
    const typed = async (cwd: string, turns: (tui: HermesTui) => Promise<void>): Promise<Seeded> => {
      const tui = await openHermesTui(bin, { cwd, env: runEnv, args: ["--yolo"] });
      try {
        await turns(tui);
        await tui.exit();
      } finally {
        tui.close();
      }
      return { id: tui.sessionId, firstReply: firstAnswer(join(hermesHome, "state.db"), tui.sessionId) };
    };

    return {
      id: "hermes",
      homes: () => ({ hermes: hermesHome }),
      async warmUp(cwd) {
        // A user's Hermes has a state.db; `sessions list` creates it without a model call, as a first run would.
        const init = await run(cwd, ["sessions", "list"]);
        if (init.code !== 0) throw new Error(`hermes sessions list failed: ${tail(init.stderr)}`);
      },
      async seed(cwd, prompts) {
        const first = await chat(cwd, ["-q", prompts.first]);
        if (!first.ok || !first.id) {
          throw new Error(`hermes seed failed: ${first.detail || "no session id printed"}`);
        }
        const second = await chat(cwd, ["--yolo", "--resume", first.id, "-q", prompts.tool]);
        if (!second.ok) throw new Error(`hermes seed failed: ${second.detail}`);
        return { id: first.id, firstReply: first.reply };
      },
      async seedInteractive(cwd, prompts) {
        return await typed(cwd, async (tui) => {
          await tui.submit(prompts.first);
          await tui.submit(prompts.tool);
        });
      },
      async seedInterrupted(cwd, prompts) {
        return await typed(cwd, async (tui) => {
          await tui.submit(prompts.first);
          await tui.submit(prompts.tool);
          await tui.interruptWithQueued(prompts.slow, prompts.slowCommand, prompts.queued);
        });
      },
      async resume(cwd, sessionId, prompt) {
        const turn = await chat(cwd, ["--resume", sessionId, "-q", prompt]);
        // Hermes starts a new session when it cannot load the one asked for: that is a failed resume.
        if (turn.ok && turn.id !== sessionId) {
          return {
            ...turn,
            ok: false,
            detail: `resumed as session ${turn.id ?? "(none)"}, not ${sessionId}`,
          };
        }
        return turn;
      },
      requestCount: () => chatRequests(logPath).length,
      lastRequest: () => sentChatMessages(chatRequests(logPath).at(-1)?.messages ?? []),
      async listed(sessionId, cwd) {
        const r = await run(cwd, ["sessions", "list"]);
        return r.code === 0 && r.stdout.includes(sessionId);
      },
      close: async () => await server?.close(),
    };
  },
};

/** The session's first assistant text, as Hermes stored it. */
function firstAnswer(database: string, sessionId: string): string {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    const row = db.prepare(
      "SELECT content FROM messages WHERE session_id = ? AND role = 'assistant' AND content <> '' ORDER BY id LIMIT 1",
    ).get(sessionId) as { content?: unknown } | undefined;
    return typeof row?.content === "string" ? row.content : "";
  } finally {
    db.close();
  }
}

/** Conversation turns stream; auxiliary calls (titles, compression summaries) do not. */
function chatRequests(logPath: string): ChatRequest[] {
  return loggedChatRequests(logPath).filter((r) => r.stream === true);
}
