/** Hermes Agent under test: the pinned PyPI release in a private venv, a private home, the fake Chat Completions server. */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installHarness } from "../install-harness.ts";
import { type ChatMessage, contentText, startFakeChatCompletions } from "../fake-servers/chat-completions.ts";
import { hermesEnv, offlineConfig, runHermes, writeHermesHome } from "../run-hermes.ts";
import { pinnedVersion } from "../install-harness.ts";
import type { HarnessFactory, SentMessage } from "./types.ts";

export const hermesUnderTest: HarnessFactory = async (work) => {
  const version = pinnedVersion("hermes");
  const exe = await installHarness("hermes", version);
  const home = join(work, "hermes-user");
  const hermesHome = join(home, ".hermes");
  const tmp = join(work, "hermes-tmp");
  mkdirSync(tmp, { recursive: true });
  const logPath = join(work, "chat-requests.jsonl");
  const server = await startFakeChatCompletions({ logPath });
  writeHermesHome(hermesHome, offlineConfig(server.url), version);
  const env = hermesEnv(exe, home, hermesHome, tmp);
  const run = (cwd: string, args: string[]) => runHermes(exe, args, { cwd, env });
  const chat = async (cwd: string, args: string[]) => {
    const r = await run(cwd, ["chat", "-Q", ...args]);
    if (r.code !== 0 || r.timedOut) {
      throw new Error(`hermes ${args.join(" ")} failed: ${r.stderr.trim().slice(-500)}`);
    }
    return r;
  };
  // A user's Hermes has a state.db; `sessions list` creates it without a model call, as a first run would.
  const init = await run(tmp, ["sessions", "list"]);
  if (init.code !== 0) throw new Error(`hermes sessions list failed: ${init.stderr.trim().slice(-300)}`);
  const requests = (): ChatMessage[][] =>
    existsSync(logPath)
      ? readFileSync(logPath, "utf8").split("\n").filter(Boolean)
        .map((l) => JSON.parse(l) as { path: string; body: { messages?: ChatMessage[] } | null })
        .filter((r) => r.path.endsWith("/chat/completions") && Array.isArray(r.body?.messages))
        .map((r) => r.body!.messages!)
      : [];

  return {
    id: "hermes",
    homeFlags: () => ["--hermes-home", hermesHome],
    async seed(cwd, sentinels) {
      const first = await chat(cwd, ["-q", `Remember ${sentinels.user}.`]);
      const id = first.sessionId;
      if (!id) throw new Error(`hermes seed: no session id printed: ${first.stderr.trim().slice(-300)}`);
      await chat(cwd, ["--yolo", "--resume", id, "-q", `TOOL: echo ${sentinels.tool}`]);
      const assistant = /ASSISTANT-REPLY: acknowledged, turn \d+, digest [0-9a-f]+\./.exec(
        JSON.stringify(flatten(requests().at(-1) ?? [])),
      )?.[0];
      if (!assistant) throw new Error("hermes seed: no assistant reply reached the model");
      return { id, assistant };
    },
    async resume(cwd, sessionId, prompt) {
      const r = await run(cwd, ["chat", "-Q", "--resume", sessionId, "-q", prompt]);
      const ok = r.code === 0 && !r.timedOut && r.sessionId === sessionId;
      return { ok, detail: `exit ${r.code}, session_id ${r.sessionId}: ${r.stderr.trim().slice(-300)}` };
    },
    lastRequest: () => flatten(requests().at(-1) ?? []),
    async listed(sessionId, cwd) {
      const r = await run(cwd, ["sessions", "list"]);
      return r.code === 0 && r.stdout.includes(sessionId);
    },
    close: () => server.close(),
  };
};

/** OpenAI-style messages: text content, with tool calls (name and arguments) as part of assistant words. */
function flatten(messages: ChatMessage[]): SentMessage[] {
  return messages.flatMap((m): SentMessage[] => {
    const role = m.role === "assistant" || m.role === "tool" || m.role === "system" ? m.role : "user";
    const text = contentText(m.content ?? null) + (m.tool_calls ? JSON.stringify(m.tool_calls) : "");
    return text.trim() ? [{ role, text }] : [];
  });
}
