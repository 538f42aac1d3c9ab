/** Claude Code under test: the pinned native binary, a private config dir, the fake Anthropic server. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installHarness } from "../install-harness.ts";
import { claudeConfigDir, prepareClaudeHome, runClaude } from "../run-claude.ts";
import {
  type AnthropicMessage,
  type AnthropicRequest,
  contentText,
  startFakeAnthropic,
} from "../fake-servers/anthropic.ts";
import { bucketName } from "../../lib/harnesses/claude-code/bucket.ts";
import type { HarnessFactory, SentMessage } from "./types.ts";

export const claudeCodeUnderTest: HarnessFactory = async (work) => {
  const bin = await installHarness("claude-code");
  const home = join(work, "claude-home");
  const logPath = join(work, "anthropic-requests.jsonl");
  prepareClaudeHome(home);
  const server = await startFakeAnthropic({ logPath });
  const run = (cwd: string, args: string[]) => runClaude({ bin, home, cwd, baseUrl: server.url, args });
  const requests = (): AnthropicRequest[] =>
    existsSync(logPath)
      ? readFileSync(logPath, "utf8").split("\n").filter(Boolean).map((l) =>
        JSON.parse(l) as AnthropicRequest
      )
      : [];

  return {
    id: "claude-code",
    homeFlags: () => ["--claude-home", claudeConfigDir(home)],
    async seed(cwd, sentinels) {
      const first = await run(cwd, ["-p", `Remember ${sentinels.user}.`, "--output-format", "json"]);
      if (first.code !== 0) throw new Error(`claude seed failed: ${first.stderr.trim()}`);
      const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;
      const second = await run(cwd, [
        "-p",
        "--resume",
        id,
        `TOOL: echo ${sentinels.tool}`,
        "--allowedTools",
        `Bash(echo ${sentinels.tool})`,
      ]);
      if (second.code !== 0) throw new Error(`claude seed failed: ${second.stderr.trim()}`);
      const assistant = /ASSISTANT-REPLY: r-[0-9a-f]+/.exec(
        JSON.stringify(flatten(requests().at(-1)?.messages ?? [])),
      )?.[0];
      if (!assistant) throw new Error("claude seed: no assistant reply reached the model");
      return { id, assistant };
    },
    async resume(cwd, sessionId, prompt) {
      const r = await run(cwd, ["-p", "--resume", sessionId, prompt]);
      return { ok: r.code === 0, detail: r.stderr.trim().slice(0, 300) };
    },
    lastRequest: () => flatten(requests().at(-1)?.messages ?? []),
    listed: (sessionId, cwd) =>
      Promise.resolve(
        existsSync(join(claudeConfigDir(home), "projects", bucketName(cwd), `${sessionId}.jsonl`)),
      ),
    close: () => server.close(),
  };
};

function flatten(messages: AnthropicMessage[]): SentMessage[] {
  return messages.flatMap((m): SentMessage[] => {
    const blocks = typeof m.content === "string" ? [] : m.content;
    const results = blocks.filter((b) => b.type === "tool_result");
    const rest = typeof m.content === "string"
      ? m.content
      : contentText(m.content) + JSON.stringify(blocks.filter((b) => b.type !== "tool_result"));
    const out: SentMessage[] = results.map((b) => ({ role: "tool", text: JSON.stringify(b) }));
    if (rest.trim()) out.push({ role: m.role === "assistant" ? "assistant" : "user", text: rest });
    return out;
  });
}
