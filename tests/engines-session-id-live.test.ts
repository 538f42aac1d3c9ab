/**
 * A new conversation's id known before its first turn, live and offline on the real binaries that take one
 * (Claude Code 2.1.328 and Gemini CLI 0.61.0 `--session-id UUID`, Copilot CLI 1.0.102 `--session-id=UUID`, each
 * against its fake model server on 127.0.0.1): `prepare()` picks a fresh UUID and binds the name to it before
 * anything runs; the harness then really uses that id: its own output names it, its store lists it, and the
 * next turn resumes it (the model is sent the first turn again). Pi, OpenCode, Codex and Hermes name their own
 * (checked on their --help: Pi's `--session` takes only an id it has, OpenCode's `--session` an existing one).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { installHarness } from "../acceptance/install-harness.ts";
import { HarnessEngine } from "../lib/engines/engine.ts";
import type { Harness } from "../lib/harnesses/types.ts";
import { claudeCode } from "../lib/harnesses/claude-code/index.ts";
import { geminiCli } from "../lib/harnesses/gemini-cli/index.ts";
import { copilotCli } from "../lib/harnesses/copilot-cli/index.ts";
import { startFakeAnthropic } from "../lib/certify-kit/fake-servers/anthropic.ts";
import { startFakeGemini } from "../lib/certify-kit/fake-servers/gemini.ts";
import { startFakeChatCompletions } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { claudeConfigDir, claudeEnv, prepareClaudeHome } from "../lib/harnesses/claude-code/certify/run.ts";
import { geminiEnv, prepareGeminiHome } from "../lib/harnesses/gemini-cli/certify/run.ts";
import { copilotEnv, copilotFolders } from "../lib/harnesses/copilot-cli/certify/run.ts";
import { copilotScript } from "../lib/harnesses/copilot-cli/certify/sent.ts";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { tempDir } from "./helpers/tmp.ts";

/** One harness offline: its environment, the home its store is listed in, its server's request log. */
interface Offline {
  env: Record<string, string>;
  home: string;
  log: string;
  close(): Promise<void>;
}

const OFFLINE: [Harness, (root: string) => Promise<Offline>][] = [
  [claudeCode, async (root) => {
    const log = join(root, "requests.jsonl");
    const server = await startFakeAnthropic({ logPath: log });
    prepareClaudeHome(root);
    const env = claudeEnv(root, server.url, process.env.PATH);
    return { env, home: claudeConfigDir(root), log, close: () => server.close() };
  }],
  [geminiCli, async (root) => {
    const log = join(root, "requests.jsonl");
    const server = await startFakeGemini({ logPath: log });
    prepareGeminiHome(root);
    const env = geminiEnv(root, server.url, process.env.PATH);
    return { env, home: root, log, close: () => server.close() };
  }],
  [copilotCli, async (root) => {
    const log = join(root, "requests.jsonl");
    const server = await startFakeChatCompletions({ logPath: log, script: copilotScript });
    const folders = copilotFolders(root);
    const env = copilotEnv(folders, server.url, process.env);
    return { env, home: folders.copilot, log, close: () => server.close() };
  }],
];

for (const [harness, offline] of OFFLINE) {
  test(`${harness.title}: the engine names a new conversation before its first turn, and the real binary runs on that id`, async () => {
    const root = realpathSync(tempDir("sb-chosen-id-"));
    const world = await offline(join(root, "h"));
    try {
      const cwd = join(root, "project");
      mkdirSync(cwd);
      const registry = new SessionRegistry({ path: join(root, "sessions.json") });
      const engine = new HarnessEngine(harness, {
        bin: await installHarness(harness.name),
        cwd,
        env: world.env,
        alias: "named",
        registry,
      });
      const id = await engine.prepare();
      assert.match(id ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const kind = harness.integrations.registryKind!;
      assert.equal(await registry.resolve(kind, cwd, "named"), id, "named before the first turn");

      const first = await engine.run("Remember FIG");
      assert.ok(first.ok, first.stderr);
      // The id comes back in the binary's own output (idFrom), and the store lists a session under it.
      assert.equal(first.sessionId, id);
      const listed = await harness.store.list(world.home);
      assert.ok(listed.some((s) => s.id === id), listed.map((s) => s.id).join(", "));

      const second = await engine.run("What was the word?");
      assert.ok(second.ok, second.stderr);
      assert.equal(second.sessionId, id);
      assert.equal(await registry.resolve(kind, cwd, "named"), id);
      const requests = readFileSync(world.log, "utf8").trim().split("\n");
      assert.ok(
        requests.some((r) => r.includes("Remember FIG") && r.includes("What was the word?")),
        "the second turn resumed the first",
      );
    } finally {
      await world.close();
    }
  });
}
