/**
 * What the real Claude Code (2.1.328 and 2.1.332) sends the model when it resumes a Claude → Claude handoff, compared with
 * resuming the untouched session: runs the installed binary offline against the fake Anthropic server.
 * Skipped when the binary is not installed (`npx bun acceptance/install-harness.ts claude-code`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type AnthropicRequest,
  contentText,
  startFakeAnthropic,
} from "../lib/certify-kit/fake-servers/anthropic.ts";
import { claudeConfigDir, claudeEnv, runClaude } from "../lib/harnesses/claude-code/certify/run.ts";
import { readRequestLog } from "../lib/certify-kit/request-log.ts";
import { bucketName } from "../lib/harnesses/claude-code/bucket.ts";
import { harnessDir } from "../acceptance/install-harness.ts";
import { runCliJson } from "./helpers/cli.ts";
import { claudeFixture, FIXTURE_CWD, sessionIdOf } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

/** The pinned version and the newest the registry served, each with its own captures. */
const VERSIONS = ["2.1.328", "2.1.332"];
const binary = (version: string) =>
  join(harnessDir("claude-code", version), "node_modules/@anthropic-ai/claude-code-linux-x64/claude");
const fixture = (version: string, name: string) =>
  join(dirname(claudeFixture(name)), "..", version, `${name}.jsonl`);
const NEXT = "LIVE-NEXT-PROMPT: carry on.";

/** The resumed request's messages as `role: part` lines (reminders and environment notes left out). */
async function resumedParts(version: string, home: string, cwd: string, id: string): Promise<string[]> {
  const logPath = join(home, `requests-${id}.jsonl`);
  const server = await startFakeAnthropic({ logPath });
  try {
    const r = await runClaude({
      bin: binary(version),
      home,
      cwd,
      args: ["-p", "--resume", id, NEXT, "--output-format", "json"],
      baseEnv: claudeEnv(home, server.url, process.env.PATH),
    });
    assert.equal(r.code, 0, r.stderr || r.stdout);
  } finally {
    await server.close();
  }
  const turn = readRequestLog<AnthropicRequest>(logPath).filter((q) => (q.tools ?? []).length > 0).at(-1)!;
  return turn.messages.filter((m) => m.role !== "system").flatMap((m) => {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    return blocks.flatMap((b) => {
      if (b.type === "tool_use") {
        return [`${m.role}: tool_use ${JSON.stringify(b.input)}`];
      }
      if (b.type === "tool_result") return [`${m.role}: tool_result ${contentText([b]).slice(0, 40)}`];
      const text = contentText([b]);
      if (!text || text.startsWith("<system-reminder>")) return [];
      return [`${m.role}: ${text.split("\n")[0]!.slice(0, 60)}`];
    });
  });
}

/** A private home holding the fixture in the bucket of a fresh cwd, and the same session handed off there. */
async function seeded(
  version: string,
  name: string,
): Promise<{ home: string; cwd: string; id: string; handedOff: string }> {
  const root = tempDir();
  const home = join(root, "home");
  mkdirSync(join(root, "project"));
  const cwd = realpathSync(join(root, "project"));
  const config = claudeConfigDir(home);
  const bucket = join(config, "projects", bucketName(cwd));
  mkdirSync(bucket, { recursive: true });
  const id = sessionIdOf(fixture(version, name));
  writeFileSync(
    join(bucket, `${id}.jsonl`),
    readFileSync(fixture(version, name), "utf8").replaceAll(FIXTURE_CWD, cwd),
  );
  writeFileSync(join(config, "settings.json"), JSON.stringify({ cleanupPeriodDays: 100000 }));
  const r = await runCliJson(["handoff", id, "--to", "claude-code", "--cwd", cwd, "--claude-home", config], {
    SESSION_BRIDGE_HOME: join(root, "bridge"),
  });
  assert.equal(r.code, 0, r.stderr);
  return { home, cwd, id, handedOff: (r.json.target as { id: string }).id };
}

for (const version of VERSIONS) {
  const skip = existsSync(binary(version)) ? false : `Claude Code ${version} is not installed`;

  test(
    `Claude Code ${version}: a Claude → Claude handoff of an interrupted call gives the model the call, its result, then the handshake with the next prompt`,
    {
      skip,
      timeout: 240_000,
    },
    async () => {
      const { home, cwd, id, handedOff: target } = await seeded(version, "interrupted-tool-call");
      const handedOff = await resumedParts(version, home, cwd, target);
      const untouched = await resumedParts(version, home, cwd, id);

      const call =
        'assistant: tool_use {"command":"echo fixture-slow-start; sleep 30; echo fixture-slow-end",' +
        '"description":"Run the requested command"}';
      assert.deepEqual(untouched.slice(-4), [
        call,
        "user: tool_result [Tool call interrupted: the session ende",
        "assistant: No response requested.",
        `user: ${NEXT}`,
      ]);
      assert.deepEqual(handedOff.slice(-5), [
        call,
        `user: tool_result ${
          "Interrupted: this tool call was still running when the session was moved".slice(0, 40)
        }`,
        "assistant: No response requested.",
        "user: <session-bridge-handoff>",
        `user: ${NEXT}`,
      ]);
      // Never less than not handing off: every part the untouched resume sent, but the binary's own stub result.
      for (const part of untouched.filter((p) => !p.startsWith("user: tool_result"))) {
        assert.ok(handedOff.includes(part), `missing after the handoff: ${part}`);
      }
    },
  );

  test(
    `Claude Code ${version}: after a Claude → Claude handoff of a finished turn the model reads the handshake with the next prompt, unanswered`,
    {
      skip,
      timeout: 240_000,
    },
    async () => {
      const { home, cwd, handedOff } = await seeded(version, "plain-text");
      const parts = await resumedParts(version, home, cwd, handedOff);
      const lastReply = readFileSync(fixture(version, "plain-text"), "utf8").match(/ASSISTANT-REPLY: [^"]*/g)!
        .at(-1);
      assert.deepEqual(parts.slice(-3), [
        `assistant: ${lastReply}`,
        "user: <session-bridge-handoff>",
        `user: ${NEXT}`,
      ]);
      assert.equal(parts.filter((p) => p === "assistant: No response requested.").length, 0);
    },
  );
}
