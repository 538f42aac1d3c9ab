/**
 * Claude Code under test: a private config dir, and the fake Anthropic server (full mode), nothing (structure)
 * or the user's providers (real). Listed means where `claude --resume` looks: the cwd's project bucket.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type AnthropicMessage,
  type AnthropicRequest,
  contentText,
  startFakeAnthropic,
} from "../../../certify-kit/fake-servers/anthropic.ts";
import { bucketName } from "../bucket.ts";
import { readRequestLog, UNREACHABLE_URL } from "../../../certify-kit/request-log.ts";
import { tail } from "../../../certify-kit/spawn.ts";
import type { HarnessDriver, SentMessage, Turn } from "../../../certify-kit/driver.ts";
import { ENTER_THEN_ESCAPE, typeInterrupted, typeTwoTurns } from "../../../certify-kit/seed-scripts.ts";
import { writeSampleTranscript } from "./sample.ts";
import { claudeConfigDir, claudeEnv, prepareClaudeHome, runClaude, type RunClaudeResult } from "./run.ts";
import { userClaudeHome } from "./user.ts";
import { type ClaudeTui, startClaudeTui } from "./tui.ts";

export const claudeCodeDriver: HarnessDriver = {
  id: "claude-code",
  command: "claude",
  async open({ work, bin, version, mode, env, homeVariables, window }) {
    const home = join(work, "claude-home");
    const logPath = join(work, "anthropic-requests.jsonl");
    const server = mode === "full" ? await startFakeAnthropic({ logPath, window }) : undefined;
    let baseEnv: Record<string, string>;
    if (mode === "real") baseEnv = userClaudeHome(home, env, homeVariables);
    else {
      prepareClaudeHome(home);
      baseEnv = claudeEnv(home, server?.url ?? UNREACHABLE_URL, env.PATH);
    }
    const run = (cwd: string, args: string[]) => runClaude({ bin, home, cwd, args, baseEnv });
    /** Runs `steps` in a TUI started in `cwd`, always closing its tmux server. */
    const inTui = async <T>(
      cwd: string,
      allowedCommands: string[],
      steps: (tui: ClaudeTui) => Promise<T>,
    ) => {
      const tui = await startClaudeTui({ bin, home, cwd, version, env: baseEnv, allowedCommands });
      try {
        return await steps(tui);
      } finally {
        tui.close();
      }
    };

    return {
      id: "claude-code",
      homes: () => ({ "claude-code": claudeConfigDir(home) }),
      async warmUp(cwd) {
        // Without a model, a transcript this version wrote (captured) stands in for the user's earlier session.
        if (mode === "structure") return writeSampleTranscript(claudeConfigDir(home), version);
        const turn = turnOf(await run(cwd, ["-p", "Hello.", "--output-format", "json"]));
        if (!turn.ok) throw new Error(`claude first run failed: ${turn.detail}`);
      },
      async seed(cwd, prompts) {
        const first = turnOf(await run(cwd, ["-p", prompts.first, "--output-format", "json"]));
        if (!first.ok || !first.id) throw new Error(`claude seed failed: ${first.detail}`);
        const second = turnOf(
          await run(cwd, [
            "-p",
            "--resume",
            first.id,
            prompts.tool,
            "--output-format",
            "json",
            "--allowedTools",
            `Bash(${prompts.toolCommand})`,
          ]),
        );
        if (!second.ok) throw new Error(`claude seed failed: ${second.detail}`);
        return { id: first.id, firstReply: first.reply };
      },
      seedInteractive: (cwd, prompts) =>
        inTui(cwd, [prompts.toolCommand], async (tui) => {
          const firstReply = await typeTwoTurns(tui, prompts);
          await tui.exit();
          return { id: tui.sessionId(), firstReply };
        }),
      // Typed while the call runs, the words are queued (a queue-operation record) until the turn ends.
      seedInterrupted: (cwd, prompts) =>
        inTui(cwd, [prompts.toolCommand, prompts.slowCommand], async (tui) => {
          const firstReply = await typeInterrupted(tui, prompts, ENTER_THEN_ESCAPE);
          await tui.exit();
          return { id: tui.sessionId(), firstReply };
        }),
      resume: async (cwd, sessionId, prompt) =>
        turnOf(await run(cwd, ["-p", "--resume", sessionId, prompt, "--output-format", "json"])),
      requestCount: () => turnRequests(logPath).length,
      lastRequest: () => flatten(turnRequests(logPath).at(-1)?.messages ?? []),
      listed: (sessionId, cwd) =>
        Promise.resolve(
          existsSync(join(claudeConfigDir(home), "projects", bucketName(cwd, version), `${sessionId}.jsonl`)),
        ),
      close: async () => await server?.close(),
    };
  },
};

/** Conversation turns offer tools; side requests (session titles) come without. */
function turnRequests(logPath: string): AnthropicRequest[] {
  return readRequestLog<AnthropicRequest>(logPath).filter((r) => (r.tools ?? []).length > 0);
}

/** `claude -p --output-format json` prints one result object: the session id and the answer. */
function turnOf(r: RunClaudeResult): Turn & { id?: string } {
  let result: { session_id?: string; result?: string; is_error?: boolean } = {};
  try {
    result = JSON.parse(r.stdout) as typeof result;
  } catch {
    // Not JSON: the failure detail below says why.
  }
  const ok = r.code === 0 && !r.timedOut && result.is_error !== true;
  return {
    ok,
    detail: ok ? "" : `exit ${r.code}${r.timedOut ? " (timed out)" : ""}: ${tail(r.stderr || r.stdout)}`,
    reply: result.result ?? "",
    ...(result.session_id ? { id: result.session_id } : {}),
  };
}

/** Anthropic messages as parts: text by role, tool_use blocks as tool calls, tool_result blocks as outputs. */
function flatten(messages: AnthropicMessage[]): SentMessage[] {
  return messages.flatMap((m): SentMessage[] => {
    const role = m.role === "assistant" ? "assistant" : m.role === "user" ? "user" : "system";
    if (typeof m.content === "string") return [{ role, text: m.content }];
    return m.content.flatMap((b): SentMessage[] => {
      if (b.type === "tool_use") {
        return [{ role: "tool_call", text: JSON.stringify({ name: b.name, input: b.input }) }];
      }
      if (b.type === "tool_result") return [{ role: "tool", text: contentText([b]) }];
      const text = contentText([b]);
      return text ? [{ role, text }] : [];
    });
  });
}
