/**
 * What Pi tells the commands it runs, where it finds skills, and its engine, live against the real Pi 0.73.1
 * offline (the certify driver's private agent folder: the fake Chat Completions server as provider `fake`):
 * `install-skill --harness pi` links the skill into `<agent folder>/skills/`, and Pi's next request lists it; a
 * command its bash tool runs sees PI_CODING_AGENT=true and no session id, so `current` there takes its newest
 * session in that directory: the one the command ran in; a second engine turn under the same alias continues
 * the conversation, each prompt sent as typed. Skipped when the binary is not installed
 * (`npx bun acceptance/install-harness.ts pi`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { pi } from "../lib/harnesses/pi/index.ts";
import { resolveHomes } from "../lib/harnesses/homes.ts";
import { currentSession } from "../lib/pipeline/current.ts";
import { SKILL_NAME, skillSource } from "../lib/pipeline/skill.ts";
import { HarnessEngine } from "../lib/engines/engine.ts";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { contentText, startFakeChatCompletions } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { loggedChatRequests } from "../lib/certify-kit/chat-requests.ts";
import { harnessDir } from "../acceptance/install-harness.ts";
import { piEnv, piFolders, writeOfflineAgent } from "../lib/harnesses/pi/certify/run.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = "0.73.1";
const BIN = join(harnessDir("pi", VERSION), "bin", "pi");
const skip = existsSync(BIN)
  ? false
  : `Pi ${VERSION} is not installed (npx bun acceptance/install-harness.ts pi)`;

const registry = builtinRegistry;

/** Words of the skill's description: a request carrying them lists the skill. */
const SKILL_WORDS = "Hand this very session";

/** `env`'s output (NAME=value lines) as an environment; a value holding a newline is cut there. */
function environment(output: string): Record<string, string> {
  const lines = output.split("\n").filter((l) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(l));
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
}

test(
  "install-skill puts the skill in Pi's agent folder, its request lists it, and current run by its bash tool names the session it runs in",
  { skip },
  async () => {
    const root = realpathSync(tempDir("sb-pi-agent-"));
    const logPath = join(root, "requests.jsonl");
    const server = await startFakeChatCompletions({ logPath });
    try {
      const folders = piFolders(join(root, "pi"));
      writeOfflineAgent(folders, server.url);
      const cwd = join(root, "project");
      mkdirSync(cwd);
      const bridgeHome = join(root, "bridge");
      const env = { ...piEnv(folders, process.env.PATH), SESSION_BRIDGE_HOME: bridgeHome };

      const installed = await runCli(["install-skill", "--harness", "pi", "--json"], env, cwd, registry);
      assert.equal(installed.code, 0, installed.stderr);
      const [line] = JSON.parse(installed.stdout).harnesses;
      const path = join(folders.agent, "skills", SKILL_NAME);
      assert.deepEqual({ harness: line.harness, path: line.path, outcome: line.outcome }, {
        harness: "pi",
        path,
        outcome: "linked",
      });
      assert.equal(readlinkSync(path), skillSource(bridgeHome));

      // The default fake model runs `TOOL: <command>` in the bash tool and answers with its output.
      const engine = new HarnessEngine(pi, {
        bin: BIN,
        cwd,
        env,
        alias: "notes",
        registry: new SessionRegistry({ path: join(root, "sessions.json") }),
      });
      const turn = await engine.run("TOOL: env");
      assert.ok(turn.ok, turn.stderr);
      const id = turn.sessionId!;
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);

      // Pi lists skills in its system prompt (a `developer` message).
      const asked = JSON.stringify(loggedChatRequests(logPath)[0]?.messages[0] ?? {});
      assert.ok(asked.includes(SKILL_NAME) && asked.includes(SKILL_WORDS), "the request lists the skill");

      const told = environment(turn.reply.replace(/^Tool said: /, ""));
      assert.equal(told.PI_CODING_AGENT, "true");
      const found = await currentSession({
        registry,
        // The store as the command finds it: from the environment Pi passed down (PI_CODING_AGENT_DIR).
        homes: resolveHomes(registry.harnesses, {}, told, cwd),
        env: told,
        cwd,
        ancestors: [],
      });
      assert.deepEqual(
        { harness: found.harness.name, id: found.session.id, rule: found.rule },
        { harness: "pi", id, rule: "newest-in-directory" },
      );
      assert.match(found.because, /^PI_CODING_AGENT is set but names no session/);

      // The alias continues the conversation; a prompt that looks like a flag or a file is sent as typed.
      const second = await engine.run("-v @notes.txt was the word?");
      assert.ok(second.ok, second.stderr);
      assert.equal(second.sessionId, id);
      assert.match(second.reply, /^ASSISTANT-REPLY: acknowledged, turn 2,/);
      const users = loggedChatRequests(logPath).at(-1)!.messages.filter((m) => m.role === "user")
        .map((m) => contentText(m.content));
      assert.deepEqual(users, ["TOOL: env", "-v @notes.txt was the word?"]);
      const registered = JSON.parse(readFileSync(join(root, "sessions.json"), "utf8"));
      assert.equal(registered.sessions.pi[cwd].notes.native_id, id);
    } finally {
      await server.close();
    }
  },
);

test(
  "a Pi engine turn that keeps no conversation writes no session file, and its effort is Pi's thinking level, sent as reasoning_effort",
  { skip },
  async () => {
    const root = realpathSync(tempDir("sb-pi-engine-"));
    const logPath = join(root, "requests.jsonl");
    const server = await startFakeChatCompletions({ logPath });
    try {
      const folders = piFolders(join(root, "pi"));
      writeOfflineAgent(folders, server.url);
      const cwd = join(root, "project");
      mkdirSync(cwd);
      const engine = new HarnessEngine(pi, {
        bin: BIN,
        cwd,
        env: piEnv(folders, process.env.PATH),
        effort: "low",
        persistSession: false,
        registry: new SessionRegistry({ path: join(root, "sessions.json") }),
      });
      const turn = await engine.run("Say hello.");
      assert.ok(turn.ok, turn.stderr);
      assert.match(turn.reply, /^ASSISTANT-REPLY: acknowledged, turn 1,/);
      assert.equal(existsSync(join(folders.agent, "sessions")), false);
      assert.deepEqual(loggedChatRequests(logPath).map((r) => r.reasoning_effort), ["low"]);
    } finally {
      await server.close();
    }
  },
);
