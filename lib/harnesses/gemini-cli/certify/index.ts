/**
 * Gemini CLI under test: a private GEMINI_CLI_HOME, and the fake Gemini API (full mode), nothing (structure) or
 * the user's providers (real). Listed means the CLI's own `gemini --list-sessions`, run in the cwd, names the
 * session (it lists the sessions of that folder's project only, as its resume does); with no model (structure),
 * that the session file is where that listing looks.
 */
import { join } from "node:path";
import { startFakeGemini } from "../../../certify-kit/fake-servers/gemini.ts";
import { UNREACHABLE_URL } from "../../../certify-kit/request-log.ts";
import { tail } from "../../../certify-kit/spawn.ts";
import type { HarnessDriver, Seeded, Turn } from "../../../certify-kit/driver.ts";
import {
  ENTER_THEN_ESCAPE,
  typedSeeding,
  typeInterrupted,
  typeTwoTurns,
} from "../../../certify-kit/seed-scripts.ts";
import {
  geminiEnv,
  geminiStoreDir,
  ONE_SHOT_FLAGS,
  parseJsonOutput,
  prepareGeminiHome,
  runGemini,
} from "./run.ts";
import { sentMessages, turnRequests } from "./sent.ts";
import { type GeminiTui, startGeminiTui } from "./tui.ts";
import { userGeminiHome } from "./user.ts";
import { listedInStore, sessionIdOf } from "./recorded.ts";
import { sessionFiles } from "../locate.ts";

/** How many of Gemini's own listings a session may be missing from before it counts as not listed. */
const LISTING_ATTEMPTS = 3;

export const geminiCliDriver: HarnessDriver = {
  id: "gemini-cli",
  command: "gemini",
  async open({ work, bin, mode, env, homeVariables, window }) {
    const home = join(work, "gemini-home");
    const store = geminiStoreDir(home);
    const logPath = join(work, "gemini-requests.jsonl");
    const server = mode === "full" ? await startFakeGemini({ logPath, window }) : undefined;
    let runEnv: Record<string, string>;
    if (mode === "real") runEnv = userGeminiHome(home, env, homeVariables);
    else {
      prepareGeminiHome(home);
      runEnv = geminiEnv(home, server?.url ?? UNREACHABLE_URL, env.PATH);
    }

    /** One one-shot turn; the session id comes from the JSON it prints, else the session file it made. */
    const oneShot = async (cwd: string, args: string[]): Promise<Turn & { id?: string }> => {
      const before = new Set(sessionFiles(store));
      const r = await runGemini(bin, cwd, [...ONE_SHOT_FLAGS, ...args], runEnv);
      const out = parseJsonOutput(r.stdout);
      const ok = r.code === 0 && !r.timedOut && out.error === undefined;
      const made = sessionFiles(store).find((f) => !before.has(f));
      const id = out.sessionId ?? (made ? sessionIdOf(made) : undefined);
      return {
        ok,
        detail: ok ? "" : `exit ${r.code}${r.timedOut ? " (timed out)" : ""}: ${tail(out.error ?? r.stderr)}`,
        reply: out.response?.trim() ?? "",
        ...(id ? { id } : {}),
      };
    };

    /** Runs `drive` against the real TUI in `cwd`, then leaves it. */
    const typed = (cwd: string, drive: (tui: GeminiTui) => Promise<string>): Promise<Seeded> =>
      typedSeeding(() => startGeminiTui({ bin, store, cwd, env: runEnv }), drive);

    return {
      id: "gemini-cli",
      homes: () => ({ "gemini-cli": home }),
      async warmUp(cwd) {
        // A user's Gemini CLI has its store (projects.json, the project's folders); listing sessions makes it
        // without a model call, as any first run would.
        const r = await runGemini(bin, cwd, ["--list-sessions"], runEnv, 60_000);
        if (r.code !== 0) throw new Error(`gemini --list-sessions failed: ${tail(r.stderr || r.stdout)}`);
      },
      async seed(cwd, prompts) {
        const first = await oneShot(cwd, ["-p", prompts.first]);
        if (!first.ok || !first.id) {
          throw new Error(`gemini seed failed: ${first.detail || "no session id printed or recorded"}`);
        }
        const second = await oneShot(cwd, ["--resume", first.id, "-p", prompts.tool]);
        if (!second.ok) throw new Error(`gemini seed failed: ${second.detail}`);
        return { id: first.id, firstReply: first.reply };
      },
      seedInteractive: (cwd, prompts) => typed(cwd, (tui) => typeTwoTurns(tui, prompts)),
      // Typed while the call runs, the words show under "Queued" and go out by themselves once the turn ends; Esc
      // cancels the running call (recorded with status "cancelled"), and the queued words then go out.
      seedInterrupted: (cwd, prompts) =>
        typed(cwd, (tui) => typeInterrupted(tui, prompts, ENTER_THEN_ESCAPE)),
      resume: (cwd, sessionId, prompt) => oneShot(cwd, ["--resume", sessionId, "-p", prompt]),
      requestCount: () => turnRequests(logPath).length,
      lastRequest: () => sentMessages(turnRequests(logPath).at(-1)),
      async listed(sessionId, cwd) {
        // Without a model the listing first retries a title for the newest session for about a minute: there
        // the store is read where the listing looks.
        if (mode === "structure") return listedInStore(store, sessionId, cwd);
        // Gemini's listing reads each session file while other Gemini processes may still write to it (a
        // summary and memory scratchpad appended after a run): a file caught mid-write is left out of that
        // listing, not of the next. A session counts as listed when one of a few listings shows it. (A session
        // resumed across a minute boundary may be gone for good: Gemini's own cleanup, docs/harnesses/gemini-cli.md.)
        for (let attempt = 0; attempt < LISTING_ATTEMPTS; attempt++) {
          const r = await runGemini(bin, cwd, ["--list-sessions"], runEnv, 60_000);
          if (r.code === 0 && r.stdout.includes(`[${sessionId}]`)) return true;
        }
        return false;
      },
      close: async () => await server?.close(),
    };
  },
};
