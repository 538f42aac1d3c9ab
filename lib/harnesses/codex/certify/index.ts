/**
 * Codex CLI under test: a private CODEX_HOME, and the fake Responses server (full mode), nothing (structure) or
 * the user's providers (real). Listed means what `codex resume`'s picker needs: a `threads` row for the thread
 * in its cwd, interactive source, non-empty title and preview, not archived.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  contentText,
  type Json,
  type JsonObject,
  startFakeResponses,
} from "../../../certify-kit/fake-servers/responses.ts";
import { newestStateDb } from "../locate.ts";
import { openReadOnly, type Row } from "../../../store/sqlite.ts";
import { readRequestLog, UNREACHABLE_URL } from "../../../certify-kit/request-log.ts";
import { tail } from "../../../certify-kit/spawn.ts";
import type { HarnessDriver, SentMessage, Turn } from "../../../certify-kit/driver.ts";
import { ENTER_THEN_ESCAPE, typeInterrupted, typeTwoTurns } from "../../../certify-kit/seed-scripts.ts";
import { codexEnv, codexHomeDir, initCodexStore, prepareCodexHome, runCodex, threadIdOf } from "./run.ts";
import { userCodexHome } from "./user.ts";
import { type CodexTui, startCodexTui } from "./tui.ts";

export const codexDriver: HarnessDriver = {
  id: "codex",
  command: "codex",
  async open({ work, bin, mode, env, homeVariables, window }) {
    const home = join(work, "codex-home");
    const logPath = join(work, "responses-requests.jsonl");
    const lastMessage = join(work, "codex-last-message.txt");
    const server = mode === "full" ? await startFakeResponses({ logPath, window }) : undefined;
    let runEnv: Record<string, string>;
    if (mode === "real") runEnv = userCodexHome(home, env, homeVariables);
    else {
      prepareCodexHome(home, server?.url ?? `${UNREACHABLE_URL}/v1`);
      runEnv = codexEnv(home, env.PATH);
    }
    /** One `codex exec` turn; its last agent message is written to a file (`-o`), which every version has. */
    const exec = async (cwd: string, args: string[]): Promise<Turn & { id?: string }> => {
      rmSync(lastMessage, { force: true });
      const r = await runCodex(
        bin,
        cwd,
        ["exec", "--skip-git-repo-check", "--json", "-o", lastMessage, ...args],
        180_000,
        runEnv,
      );
      const ok = r.code === 0 && !r.timedOut;
      const id = threadIdOf(r.stdout);
      return {
        ok,
        detail: ok ? "" : `exit ${r.code}${r.timedOut ? " (timed out)" : ""}: ${tail(r.stderr)}`,
        reply: readOr(lastMessage),
        ...(id ? { id } : {}),
      };
    };

    /** Runs `drive` against the real TUI in `cwd`; the pane is closed whatever happens. */
    const inTui = async <T>(cwd: string, drive: (tui: CodexTui) => Promise<T>): Promise<T> => {
      const tui = await startCodexTui({ bin, codexHome: codexHomeDir(home), cwd, env: runEnv });
      try {
        return await drive(tui);
      } finally {
        tui.close();
      }
    };

    return {
      id: "codex",
      homes: () => ({ codex: codexHomeDir(home) }),
      warmUp: (cwd) => initCodexStore(bin, home, cwd, runEnv),
      async seed(cwd, prompts) {
        const first = await exec(cwd, [prompts.first]);
        if (!first.ok || !first.id) {
          throw new Error(`codex seed failed: ${first.detail || "no thread id in --json"}`);
        }
        const second = await exec(cwd, ["resume", first.id, prompts.tool]);
        if (!second.ok) throw new Error(`codex seed failed: ${second.detail}`);
        return { id: first.id, firstReply: first.reply };
      },
      seedInteractive: (cwd, prompts) =>
        inTui(cwd, async (tui) => {
          const firstReply = await typeTwoTurns(tui, prompts);
          await tui.exit();
          return { id: tui.sessionId(), firstReply };
        }),
      // Typed while the call runs, the words are listed under "Messages to be submitted after next tool call";
      // Esc interrupts the running call and sends them at once (Codex's own behaviour).
      seedInterrupted: (cwd, prompts) =>
        inTui(cwd, async (tui) => {
          const firstReply = await typeInterrupted(tui, prompts, ENTER_THEN_ESCAPE);
          await tui.exit();
          return { id: tui.sessionId(), firstReply };
        }),
      resume: (cwd, sessionId, prompt) => exec(cwd, ["resume", sessionId, prompt]),
      requestCount: () => responsesRequests(logPath).length,
      lastRequest: () => flatten(responsesRequests(logPath).at(-1)),
      listed: (sessionId, cwd) => Promise.resolve(listedInPicker(codexHomeDir(home), sessionId, cwd)),
      close: async () => await server?.close(),
    };
  },
};

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

function responsesRequests(logPath: string): JsonObject[] {
  return readRequestLog<JsonObject>(logPath).filter((r) =>
    r.method === "POST" && /\/responses$/.test(String(r.path))
  );
}

function listedInPicker(home: string, id: string, cwd: string): boolean {
  const database = newestStateDb(home);
  if (!database) return false;
  const db = openReadOnly(database);
  try {
    const row = db.prepare("SELECT * FROM threads WHERE id = ?").get(id) as Row | undefined;
    return !!row && row.cwd === cwd && row.source === "cli" && row.archived === 0 &&
      typeof row.title === "string" && row.title.trim() !== "" &&
      typeof row.preview === "string" && row.preview.trim() !== "";
  } finally {
    db.close();
  }
}

/** A Responses request's input items as parts: calls as tool calls, their outputs as tool outputs. */
function flatten(request: JsonObject | undefined): SentMessage[] {
  const body = request?.body as JsonObject | undefined;
  const input = Array.isArray(body?.input) ? body.input : [];
  return input.flatMap((item: Json): SentMessage[] => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return [];
    switch (item.type) {
      case "message": {
        const role = item.role === "assistant" ? "assistant" : item.role === "user" ? "user" : "system";
        return [{ role, text: contentText(item.content) }];
      }
      case "function_call":
      case "custom_tool_call":
      case "local_shell_call":
        return [{ role: "tool_call", text: JSON.stringify(item) }];
      case "function_call_output":
      case "custom_tool_call_output":
        return [{ role: "tool", text: JSON.stringify(item.output) }];
      default:
        return [];
    }
  });
}
