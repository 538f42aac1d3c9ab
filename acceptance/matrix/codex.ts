/**
 * Codex CLI under test: the pinned native binary (CODEX_VERSION overrides the pin, e.g. 0.147.0 for the legacy
 * format), a private CODEX_HOME, the fake Responses server. Listed means what `codex resume`'s picker needs: a
 * `threads` row for the thread in its cwd, interactive source, non-empty title and preview, not archived.
 */
import { existsSync, readFileSync } from "node:fs";
import { installHarness, pinnedVersion } from "../install-harness.ts";
import { codexHomeDir, initCodexStore, prepareCodexHome, runCodex, threadIdOf } from "../run-codex.ts";
import { contentText, type Json, type JsonObject, startFakeResponses } from "../fake-servers/responses.ts";
import { newestStateDb } from "../../lib/harnesses/codex/locate.ts";
import { openReadOnly, type Row } from "../../lib/store/sqlite.ts";
import type { HarnessFactory, SentMessage } from "./types.ts";
import { join } from "node:path";

const EXEC = ["exec", "--skip-git-repo-check", "--json"];

export const codexUnderTest: HarnessFactory = async (work) => {
  const bin = await installHarness("codex", process.env.CODEX_VERSION || pinnedVersion("codex"));
  const home = join(work, "codex-home");
  const logPath = join(work, "responses-requests.jsonl");
  const server = await startFakeResponses({ logPath });
  prepareCodexHome(home, server.url);
  await initCodexStore(bin, home, work);
  const requests = (): JsonObject[] =>
    existsSync(logPath)
      ? readFileSync(logPath, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as JsonObject)
        .filter((r) => r.method === "POST" && /\/responses$/.test(String(r.path)))
      : [];
  const exec = async (cwd: string, args: string[]) => {
    const r = await runCodex(bin, home, cwd, [...EXEC, ...args]);
    if (r.code !== 0) {
      throw new Error(`codex ${args.join(" ")} failed (${r.code}): ${r.stderr.trim().slice(-300)}`);
    }
    return r;
  };

  return {
    id: "codex",
    homeFlags: () => ["--codex-home", codexHomeDir(home)],
    async seed(cwd, sentinels) {
      const first = await exec(cwd, [`Remember ${sentinels.user}.`]);
      const id = threadIdOf(first.stdout);
      if (!id) throw new Error("codex seed: no thread id in the --json output");
      await exec(cwd, ["resume", id, `TOOL: echo ${sentinels.tool}`]);
      const assistant = /ASSISTANT-REPLY: turn \d+ noted, checksum [0-9a-f]+/.exec(
        JSON.stringify(flatten(requests().at(-1))),
      )?.[0];
      if (!assistant) throw new Error("codex seed: no assistant reply reached the model");
      return { id, assistant };
    },
    async resume(cwd, sessionId, prompt) {
      const r = await runCodex(bin, home, cwd, [...EXEC, "resume", sessionId, prompt]);
      return { ok: r.code === 0, detail: r.stderr.trim().slice(-300) };
    },
    lastRequest: () => flatten(requests().at(-1)),
    listed: (sessionId, cwd) => Promise.resolve(listedInPicker(codexHomeDir(home), sessionId, cwd)),
    close: () => server.close(),
  };
};

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

/** A Responses request's input items as messages: calls count as assistant words, their outputs as tool. */
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
        return [{ role: "assistant", text: JSON.stringify(item) }];
      case "function_call_output":
      case "custom_tool_call_output":
        return [{ role: "tool", text: JSON.stringify(item.output) }];
      default:
        return [];
    }
  });
}
