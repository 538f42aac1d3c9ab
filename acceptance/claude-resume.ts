/**
 * Live proof for Claude Code -> Claude Code: seed a session with the real binary against the fake server,
 * hand it off to another directory with the session-bridge CLI, resume it there with the real
 * `claude -p --resume`, and pass only if the resumed request carries the earlier user words, the earlier
 * assistant words and the tool output, each in its right role. Exit 1 on any failure.
 *
 * Usage: npx bun acceptance/claude-resume.ts [--binary dist/session-bridge]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installHarness } from "./install-harness.ts";
import { claudeConfigDir, prepareClaudeHome, runClaude } from "./run-claude.ts";
import {
  type AnthropicMessage,
  type AnthropicRequest,
  contentText,
  startFakeAnthropic,
} from "./fake-servers/anthropic.ts";
import { scriptArgv } from "../lib/runtime.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const USER_SENTINEL = "user-sentinel-7f3a";
const TOOL_SENTINEL = "tool-sentinel-91c2";

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

function bridge(
  args: string[],
  binary: string | undefined,
): { code: number; stdout: string; stderr: string } {
  const [bin, ...pre] = binary ? [binary] : scriptArgv(MAIN);
  const r = spawnSync(bin!, [...pre, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function requests(logPath: string): AnthropicRequest[] {
  if (!existsSync(logPath)) return [];
  return readFileSync(logPath, "utf8").split("\n").filter(Boolean).map((l) =>
    JSON.parse(l) as AnthropicRequest
  );
}

/** All text a role sent, tool results included, so a sentinel can be looked for by role. */
function textOf(messages: AnthropicMessage[], role: "user" | "assistant"): string {
  return messages.filter((m) => m.role === role).map((m) =>
    contentText(m.content) + JSON.stringify(m.content)
  ).join("\n");
}

async function main(): Promise<number> {
  const binaryFlag = process.argv.indexOf("--binary");
  const binary = binaryFlag > 0 ? realpathSync(process.argv[binaryFlag + 1]!) : undefined;
  const claude = await installHarness("claude-code");
  const work = mkdtempSync(join(tmpdir(), "sb-accept-claude-"));
  const logPath = join(work, "requests.jsonl");
  const server = await startFakeAnthropic({ logPath });
  const checks: Check[] = [];
  try {
    const home = join(work, "home");
    prepareClaudeHome(home);
    const source = join(work, "source-project");
    const target = join(work, "target project");
    mkdirSync(source);
    mkdirSync(target);
    const run = (cwd: string, args: string[]) =>
      runClaude({ bin: claude, home, cwd, baseUrl: server.url, args });

    const first = await run(source, ["-p", `Remember ${USER_SENTINEL}.`, "--output-format", "json"]);
    const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const second = await run(source, [
      "-p",
      "--resume",
      sessionId,
      `TOOL: echo ${TOOL_SENTINEL}`,
      "--allowedTools",
      `Bash(echo ${TOOL_SENTINEL})`,
    ]);
    if (first.code !== 0 || second.code !== 0) {
      throw new Error(`seeding failed: ${first.stderr}${second.stderr}`);
    }
    // The fake model's first reply is derived from the prompt without quoting it: proof of the assistant side.
    const assistantSentinel = /ASSISTANT-REPLY: r-[0-9a-f]+/.exec(
      textOf(requests(logPath).at(-1)?.messages ?? [], "assistant"),
    )?.[0];
    if (!assistantSentinel) throw new Error("the seeded session has no assistant reply in the request log");

    const handoff = bridge([
      "handoff",
      sessionId,
      "--to",
      "claude-code",
      "--cwd",
      target,
      "--claude-home",
      claudeConfigDir(home),
      "--json",
    ], binary);
    checks.push({ name: "handoff exits 0", ok: handoff.code === 0, detail: handoff.stderr.trim() });
    const plan = JSON.parse(handoff.stdout) as { target: { id: string; path: string } };
    checks.push({
      name: "file in the target cwd's bucket",
      ok: existsSync(plan.target.path),
      detail: plan.target.path,
    });

    const before = requests(logPath).length;
    const resumed = await run(target, ["-p", "--resume", plan.target.id, "What did we do so far?"]);
    checks.push({
      name: "claude --resume exits 0",
      ok: resumed.code === 0,
      detail: resumed.stderr.trim().slice(0, 300),
    });
    const sent = requests(logPath).slice(before).at(-1)?.messages ?? [];
    const user = textOf(sent, "user");
    const assistant = textOf(sent, "assistant");
    checks.push({
      name: "earlier user words sent as user",
      ok: user.includes(USER_SENTINEL),
      detail: USER_SENTINEL,
    });
    checks.push({
      name: "earlier assistant words sent as assistant",
      ok: assistant.includes(assistantSentinel),
      detail: assistantSentinel,
    });
    checks.push({
      name: "tool call and its output sent",
      ok: assistant.includes(`echo ${TOOL_SENTINEL}`) && user.includes("tool_result") &&
        user.includes(TOOL_SENTINEL),
      detail: TOOL_SENTINEL,
    });
    checks.push({ name: "handshake sent", ok: user.includes("session-bridge-handoff"), detail: "" });
  } catch (error) {
    checks.push({ name: "run", ok: false, detail: error instanceof Error ? error.message : String(error) });
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  for (const c of checks) {
    console.log(`${c.ok ? "PASS" : "FAIL"}  ${c.name}${c.detail ? `  (${c.detail})` : ""}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`claude-code -> claude-code live resume: ${failed ? "FAILED" : "passed"}`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
