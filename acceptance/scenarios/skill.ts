/**
 * Live: an agent hands off its own session by following the session-handoff skill. For each harness, offline
 * against its fake model server, in private homes: `session-bridge install-skill` links the skill into the
 * harness's home; the real binary runs a first turn (the user's word and the model's answer), then, resumed,
 * is asked to hand the session off. Its request must list the installed skill; the scripted model follows the
 * skill (Gemini CLI's first activates it with its `activate_skill` tool, as its system prompt asks, and goes on
 * only once the skill's instructions came back): it makes the agent run `session-bridge current --json` (which
 * must name this very session by the harness's own variable, or for a harness that sets none, such as Gemini
 * CLI, as its newest session in this directory) and then
 * `session-bridge handoff current --to <next harness> --stub-open-calls`. The
 * target's real binary then resumes the handed-off session, and passes when its request carries the earlier
 * words of both roles.
 *
 * Usage: npx bun acceptance/scenarios/skill.ts [--binary dist/session-bridge]   (exit 1 on any FAIL)
 * Without --binary, `session-bridge` on the agent's PATH runs main.ts under the current runtime; SKILL_ONLY=<harness>
 * (or names-none) runs that check only.
 */
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { BUILTIN_HARNESSES, type HarnessName } from "../../lib/harnesses/registry.ts";
import { scriptArgv } from "../../lib/runtime.ts";
import { installHarness, pinnedVersion } from "../install-harness.ts";
import { binaryArg, step, withWork } from "./live.ts";
import { startTarget, TARGET_IDS } from "./targets.ts";
import {
  claudeConfigDir,
  claudeEnv,
  prepareClaudeHome,
  runClaude,
} from "../../lib/harnesses/claude-code/certify/run.ts";
import {
  codexEnv,
  codexHomeDir,
  prepareCodexHome,
  runCodex,
  threadIdOf,
} from "../../lib/harnesses/codex/certify/run.ts";
import {
  hermesEnv,
  offlineConfig,
  runHermes,
  writeHermesHome,
} from "../../lib/harnesses/hermes/certify/run.ts";
import {
  type AnthropicRequest,
  defaultScript as anthropicDefault,
  type FakeReply,
  shortHash,
  startFakeAnthropic,
} from "../../lib/certify-kit/fake-servers/anthropic.ts";
import { messageItem, shellTool, startFakeResponses } from "../../lib/certify-kit/fake-servers/responses.ts";
import {
  defaultScript as chatDefault,
  findTerminalTool,
  startFakeChatCompletions,
} from "../../lib/certify-kit/fake-servers/chat-completions.ts";
import {
  defaultGeminiScript,
  functionResponses,
  functionResponseText,
  type GeminiRequest,
  shellToolName,
  startFakeGemini,
} from "../../lib/certify-kit/fake-servers/gemini.ts";
import {
  geminiEnv,
  ONE_SHOT_FLAGS,
  parseJsonOutput,
  prepareGeminiHome,
  runGemini,
} from "../../lib/harnesses/gemini-cli/certify/run.ts";
import { turnRequests } from "../../lib/harnesses/gemini-cli/certify/sent.ts";
import {
  offlineConfig as opencodeOfflineConfig,
  opencodeEnv,
  opencodeFolders,
  parseRunEvents,
  runOpencode,
  writeOpencodeConfig,
} from "../../lib/harnesses/opencode/certify/run.ts";
import { isTitleRequest, turnRequests as opencodeTurns } from "../../lib/harnesses/opencode/certify/sent.ts";
import {
  copilotEnv,
  copilotFolders,
  ONE_SHOT_FLAGS as COPILOT_ONE_SHOT_FLAGS,
  runCopilot,
} from "../../lib/harnesses/copilot-cli/certify/run.ts";
import { turnRequests as copilotTurns } from "../../lib/harnesses/copilot-cli/certify/sent.ts";
import { parsePromptOutput } from "../../lib/harnesses/copilot-cli/prompt-output.ts";
import {
  JSON_MODE,
  parseJsonEvents,
  piEnv,
  piFolders,
  runPi,
  writeOfflineAgent,
} from "../../lib/harnesses/pi/certify/run.ts";
import { loggedChatRequests } from "../../lib/certify-kit/chat-requests.ts";
import { readRequestLog } from "../../lib/certify-kit/request-log.ts";
import { tail } from "../../lib/certify-kit/spawn.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
const SKILL = "session-handoff";
/** Words of the skill's description: a request carrying them lists the skill. */
const SKILL_WORDS = "hand this very session";
/** The prompt that asks for the handoff, and the words of the first turn each role said. */
const ASK = "HANDOFF-TO";
const userWord = (h: HarnessName) => `PELICAN-${h}`;
const modelWord = (h: HarnessName) => `OSPREY-${h}`;
/**
 * Each step's command ends by printing a marker the shell assembles, so the call's own text never matches it.
 * Not with `$((...))`: Gemini CLI's shell tool refuses any `$(` (its detectCommandSubstitution).
 */
const done = (n: number) => `STEP-${n}-DONE`;
const marked = (command: string, n: number) => `${command}; printf 'STEP-%s-DONE\\n' ${n}`;

/** Where the agent is in the skill's procedure, from the whole request (the same in every wire format). */
type Move = { run: string } | { say: string };

function agentMove(body: unknown, source: HarnessName, target: HarnessName, targetFlags: string[]): Move {
  const seen = JSON.stringify(body);
  if (!seen.includes(ASK)) return { say: `Noted: ${modelWord(source)}.` };
  if (!seen.includes(done(1))) return { run: marked("session-bridge current --json", 1) };
  if (!seen.includes(done(2))) {
    const flags = targetFlags.map((f) => `'${f}'`).join(" ");
    return { run: marked(`session-bridge handoff current --to ${target} --stub-open-calls ${flags}`, 2) };
  }
  return { say: `Handed off to ${target}; the resume command is above.` };
}

interface Source {
  /** Runs one turn (a new session, or `resume` one) and returns the session's id. */
  turn(prompt: string, resume?: string): Promise<string>;
  home: string;
  /** Variables besides the home one that say where the harness looks for skills (OpenCode: its config folder). */
  skillEnv?: Record<string, string>;
  /** Conversation requests its fake server received, oldest first. */
  requests(): unknown[];
  close(): Promise<void>;
}

interface SourceSetup {
  work: string;
  cwd: string;
  /** The environment every source run adds: PATH with `session-bridge` first, the private bridge home. */
  env: Record<string, string>;
  move(body: unknown): Move;
  /** The harness version to run (default: the pinned one). */
  version?: string;
}

async function claudeSource({ work, cwd, env, move, version }: SourceSetup): Promise<Source> {
  const bin = await installHarness("claude-code", version);
  const home = join(work, "claude-user");
  prepareClaudeHome(home);
  const logPath = join(work, "anthropic.jsonl");
  const script = (req: AnthropicRequest): FakeReply => {
    if (!req.tools?.length) return anthropicDefault(req);
    const m = move(req);
    if ("say" in m) return { content: [{ type: "text", text: m.say }] };
    const id = `toolu_skill_${shortHash(`${req.messages.length}:${m.run}`, 20)}`;
    return {
      content: [{ type: "tool_use", id, name: "Bash", input: { command: m.run, description: "session" } }],
    };
  };
  const server = await startFakeAnthropic({ logPath, script });
  return {
    home: claudeConfigDir(home),
    async turn(prompt, resume) {
      const args = [...(resume ? ["--resume", resume] : []), "-p", prompt, "--output-format", "json"];
      const r = await runClaude({
        bin,
        home,
        cwd,
        baseEnv: claudeEnv(home, server.url, process.env.PATH),
        args: [...args, "--dangerously-skip-permissions"],
        env: { ...env, PATH: `${env.PATH}:${process.env.PATH ?? ""}` },
      });
      const id = (JSON.parse(r.stdout || "{}") as { session_id?: string }).session_id;
      if (r.code !== 0 || !id) throw new Error(`claude exit ${r.code}: ${tail(r.stderr + r.stdout)}`);
      return id;
    },
    requests: () => readRequestLog<AnthropicRequest>(logPath).filter((b) => !!b.tools?.length),
    close: () => server.close(),
  };
}

async function codexSource({ work, cwd, env, move }: SourceSetup): Promise<Source> {
  const bin = await installHarness("codex", pinnedVersion("codex"));
  const home = join(work, "codex-user");
  const logPath = join(work, "responses.jsonl");
  const server = await startFakeResponses({
    logPath,
    script: (body, ctx) => {
      const m = move(body);
      const seed = `${ctx.index}`;
      if ("say" in m) return [messageItem(m.say, seed)];
      const shell = shellTool(body);
      if (!shell) return [messageItem("No shell tool was offered.", seed)];
      return [{
        type: "function_call",
        id: `fc_skill_${ctx.index}`,
        status: "completed",
        name: shell.name,
        arguments: JSON.stringify(shell.args(m.run)),
        call_id: `call_skill_${ctx.index}`,
      }];
    },
  });
  prepareCodexHome(home, server.url);
  loginPath(home, env);
  const base = codexEnv(home, process.env.PATH);
  return {
    home: codexHomeDir(home),
    async turn(prompt, resume) {
      const args = ["exec", "--skip-git-repo-check", "--json", "--dangerously-bypass-approvals-and-sandbox"];
      const r = await runCodex(
        bin,
        cwd,
        [...args, ...(resume ? ["resume", resume] : []), prompt],
        180_000,
        {
          ...base,
          ...env,
          PATH: `${env.PATH}:${base.PATH}`,
        },
      );
      const id = resume ?? threadIdOf(r.stdout);
      if (r.code !== 0 || !id) throw new Error(`codex exit ${r.code}: ${tail(r.stderr)}`);
      return id;
    },
    requests: () =>
      readRequestLog<{ path?: string; body?: unknown }>(logPath).filter((r) =>
        /\/responses$/.test(String(r.path))
      )
        .map((r) => r.body),
    close: () => server.close(),
  };
}

async function hermesSource({ work, cwd, env, move }: SourceSetup): Promise<Source> {
  const version = pinnedVersion("hermes");
  const exe = await installHarness("hermes", version);
  const home = join(work, "hermes-user");
  const hermesHome = join(home, ".hermes");
  const tmp = join(work, "hermes-tmp");
  mkdirSync(tmp, { recursive: true });
  const logPath = join(work, "chat.jsonl");
  const server = await startFakeChatCompletions({
    logPath,
    script: (req, ctx) => {
      if (!ctx.stream) return chatDefault(req, ctx);
      const m = move(req);
      if ("say" in m) return { content: m.say };
      const tool = findTerminalTool(req.tools);
      return { toolCalls: [{ name: tool.name, arguments: { [tool.argName]: m.run } }] };
    },
  });
  writeHermesHome(hermesHome, offlineConfig(server.url), version);
  loginPath(home, env);
  const base = hermesEnv(exe, home, hermesHome, tmp);
  return {
    home: hermesHome,
    async turn(prompt, resume) {
      const args = ["chat", "-Q", "--yolo", ...(resume ? ["--resume", resume] : []), "-q", prompt];
      const r = await runHermes(exe, args, {
        cwd,
        env: { ...base, ...env, PATH: `${env.PATH}:${base.PATH}` },
      });
      if (r.code !== 0 || r.timedOut || !r.sessionId) {
        throw new Error(`hermes exit ${r.code}: ${tail(r.stderr)}`);
      }
      return r.sessionId;
    },
    requests: () =>
      readRequestLog<{ path?: string; body?: { stream?: boolean } }>(logPath).filter((r) =>
        String(r.path).endsWith("/chat/completions") && r.body?.stream === true
      ).map((r) => r.body),
    close: () => server.close(),
  };
}

/** Gemini CLI's tool that loads a listed skill's instructions. */
const ACTIVATE_SKILL = "activate_skill";

function calledTool(req: GeminiRequest, name: string): boolean {
  return req.contents.some((c) => (c.parts ?? []).some((p) => p.functionCall?.name === name));
}

/** Whether the skill's instructions reached the model: `activate_skill` answers with them in these tags. */
function skillActivated(req: GeminiRequest): boolean {
  return req.contents.some((c) =>
    functionResponses(c).some((r) =>
      r.name === ACTIVATE_SKILL &&
      functionResponseText(r.response).includes(`<activated_skill name="${SKILL}">`)
    )
  );
}

async function geminiSource({ work, cwd, env, move, version }: SourceSetup): Promise<Source> {
  const bin = await installHarness("gemini-cli", version);
  const home = join(work, "gemini-user");
  prepareGeminiHome(home);
  const logPath = join(work, "gemini.jsonl");
  const server = await startFakeGemini({
    logPath,
    script: (req, ctx) => {
      // Side calls (the model router, the next-speaker check, titles) are not the agent's moves.
      if (ctx.method === "generateContent") return defaultGeminiScript(req, ctx);
      const m = move(req);
      if ("say" in m) return { text: m.say };
      // As its system prompt tells a Gemini model: a listed skill is activated (its instructions come back in
      // the tool's answer) before it is followed.
      if (!skillActivated(req)) {
        return calledTool(req, ACTIVATE_SKILL)
          ? { text: "The skill could not be activated." }
          : { functionCalls: [{ name: ACTIVATE_SKILL, args: { name: SKILL } }] };
      }
      const shell = shellToolName(req);
      if (!shell) return { text: "No shell tool was offered." };
      return { functionCalls: [{ name: shell, args: { command: m.run, description: "session" } }] };
    },
  });
  const base = geminiEnv(home, server.url, process.env.PATH);
  return {
    home,
    async turn(prompt, resume) {
      const args = [...ONE_SHOT_FLAGS, ...(resume ? ["--resume", resume] : []), "-p", prompt];
      const r = await runGemini(bin, cwd, args, { ...base, ...env, PATH: `${env.PATH}:${base.PATH}` });
      const out = parseJsonOutput(r.stdout);
      if (r.code !== 0 || out.error !== undefined || !out.sessionId) {
        throw new Error(`gemini exit ${r.code}: ${tail(out.error ?? (r.stderr || r.stdout))}`);
      }
      return out.sessionId;
    },
    requests: () => turnRequests(logPath),
    close: () => server.close(),
  };
}

async function opencodeSource({ work, cwd, env, move, version }: SourceSetup): Promise<Source> {
  const bin = await installHarness("opencode", version);
  const folders = opencodeFolders(join(work, "opencode-user"));
  const logPath = join(work, "chat.jsonl");
  const server = await startFakeChatCompletions({
    logPath,
    script: (req) => {
      // The title OpenCode asks for beside a first turn is not the agent's move.
      if (isTitleRequest(req)) return { content: "Skill handoff" };
      const m = move(req);
      if ("say" in m) return { content: m.say };
      const tool = findTerminalTool(req.tools);
      return {
        toolCalls: [{ name: tool.name, arguments: { [tool.argName]: m.run, description: "session" } }],
      };
    },
  });
  writeOpencodeConfig(folders, opencodeOfflineConfig(server.url));
  const base = opencodeEnv(folders, process.env.PATH);
  return {
    // What OpenCode's home variable (XDG_DATA_HOME) names: its data folder is `<data>/opencode`.
    home: folders.data,
    // Its skills live in its configuration folder, `$XDG_CONFIG_HOME/opencode/skills`, not its data folder.
    skillEnv: { XDG_CONFIG_HOME: folders.config },
    async turn(prompt, resume) {
      const args = ["run", "--format", "json", ...(resume ? ["--session", resume] : [])];
      const r = await runOpencode(bin, args, {
        cwd,
        env: { ...base, ...env, PATH: `${env.PATH}:${base.PATH}` },
        prompt,
      });
      const out = parseRunEvents(r.stdout);
      if (r.code !== 0 || out.error !== undefined || !out.sessionId) {
        throw new Error(`opencode exit ${r.code}: ${tail(out.error ?? (r.stderr || r.stdout))}`);
      }
      return out.sessionId;
    },
    requests: () => opencodeTurns(logPath),
    close: () => server.close(),
  };
}

async function copilotSource({ work, cwd, env, move, version }: SourceSetup): Promise<Source> {
  const bin = await installHarness("copilot-cli", version);
  const folders = copilotFolders(join(work, "copilot-user"));
  const logPath = join(work, "chat.jsonl");
  const server = await startFakeChatCompletions({
    logPath,
    script: (req) => {
      const m = move(req);
      if ("say" in m) return { content: m.say };
      // Copilot's bash tool requires a description beside the command.
      const tool = findTerminalTool(req.tools);
      return {
        toolCalls: [{ name: tool.name, arguments: { [tool.argName]: m.run, description: "session" } }],
      };
    },
  });
  const base = copilotEnv(folders, server.url, process.env);
  return {
    // COPILOT_HOME: its skills folder is `<home>/skills`.
    home: folders.copilot,
    async turn(prompt, resume) {
      const args = [
        ...COPILOT_ONE_SHOT_FLAGS,
        // The handoff names the target's home, outside the project: a path Copilot asks about first, and with
        // no one to ask in a one-shot run refuses ("Permission denied ... no interactive user response").
        "--allow-all-paths",
        ...(resume ? [`--resume=${resume}`] : []),
        `--prompt=${prompt}`,
      ];
      const r = await runCopilot(bin, cwd, args, { ...base, ...env, PATH: `${env.PATH}:${base.PATH}` });
      const out = parsePromptOutput(r.stdout);
      if (r.code !== 0 || out.error !== undefined || !out.sessionId) {
        throw new Error(`copilot exit ${r.code}: ${tail(out.error ?? (r.stderr || r.stdout))}`);
      }
      return out.sessionId;
    },
    requests: () => copilotTurns(logPath),
    close: () => server.close(),
  };
}

async function piSource({ work, cwd, env, move, version }: SourceSetup): Promise<Source> {
  const bin = await installHarness("pi", version);
  const folders = piFolders(join(work, "pi-user"));
  const logPath = join(work, "chat.jsonl");
  const server = await startFakeChatCompletions({
    logPath,
    script: (req) => {
      const m = move(req);
      if ("say" in m) return { content: m.say };
      const tool = findTerminalTool(req.tools);
      return { toolCalls: [{ name: tool.name, arguments: { [tool.argName]: m.run } }] };
    },
  });
  writeOfflineAgent(folders, server.url);
  const base = piEnv(folders, process.env.PATH);
  return {
    // What PI_CODING_AGENT_DIR names: the agent folder, holding sessions/ and skills/.
    home: folders.agent,
    async turn(prompt, resume) {
      const args = [...JSON_MODE, ...(resume ? ["--session", resume] : [])];
      const r = await runPi(bin, args, {
        cwd,
        env: { ...base, ...env, PATH: `${env.PATH}:${base.PATH}` },
        prompt,
      });
      const out = parseJsonEvents(r.stdout);
      if (r.code !== 0 || out.error !== undefined || !out.sessionId) {
        throw new Error(`pi exit ${r.code}: ${tail(out.error ?? (r.stderr || r.stdout))}`);
      }
      return out.sessionId;
    },
    requests: () => loggedChatRequests(logPath),
    close: () => server.close(),
  };
}

const SOURCES: Record<HarnessName, (setup: SourceSetup) => Promise<Source>> = {
  "claude-code": claudeSource,
  codex: codexSource,
  hermes: hermesSource,
  "gemini-cli": geminiSource,
  opencode: opencodeSource,
  "copilot-cli": copilotSource,
  pi: piSource,
};

/**
 * Codex and Hermes run commands in a login shell, which resets PATH from /etc/profile: the user's ~/.profile
 * puts session-bridge's folder back, as an install in ~/.local/bin would be found.
 */
function loginPath(home: string, env: Record<string, string>): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, ".profile"), `export PATH='${env.PATH}':"$PATH"\n`);
}

/** A folder holding `session-bridge`: the binary under test, or main.ts run by this runtime. */
function bridgeOnPath(work: string, binary: string | undefined): string {
  const bin = join(work, "bin");
  mkdirSync(bin, { recursive: true });
  const path = join(bin, "session-bridge");
  if (binary) symlinkSync(binary, path);
  else {
    writeFileSync(path, `#!/bin/sh\nexec ${scriptArgv(MAIN).map((w) => `'${w}'`).join(" ")} "$@"\n`);
    chmodSync(path, 0o755);
  }
  return bin;
}

async function check(
  source: HarnessName,
  target: HarnessName,
  work: string,
  binary?: string,
): Promise<string[]> {
  const reasons: string[] = [];
  mkdirSync(join(work, "project"));
  const cwd = realpathSync(join(work, "project"));
  const bin = bridgeOnPath(work, binary);
  const to = await startTarget(target, join(work, "target"));
  const env = { PATH: bin, SESSION_BRIDGE_HOME: join(work, "bridge") };
  const agent = await SOURCES[source]({
    work,
    cwd,
    env,
    move: (body) => agentMove(body, source, target, to.homeFlags),
  });
  try {
    // The skill, from the binary, linked into the source harness's (private) home.
    const homeVariable = BUILTIN_HARNESSES[source].home.env;
    const install = spawnSync(join(bin, "session-bridge"), ["install-skill", "--harness", source, "--json"], {
      encoding: "utf8",
      env: {
        ...process.env,
        ...env,
        HOME: join(work, "nobody"),
        [homeVariable]: agent.home,
        ...agent.skillEnv,
      },
    });
    const outcome = install.status === 0
      ? (JSON.parse(install.stdout) as { harnesses: { outcome: string }[] }).harnesses[0]?.outcome
      : `exit ${install.status}: ${install.stderr.trim()}`;
    if (outcome !== "linked") return [`install-skill: ${outcome}`];

    const id = await agent.turn(`Remember the word ${userWord(source)}.`);
    await agent.turn(`${ASK} ${target}: hand this session off to ${target}.`, id);
    const asked = agent.requests().filter((b) => JSON.stringify(b).includes(ASK));
    const listed = asked[0] ? JSON.stringify(asked[0]).toLowerCase() : "";
    if (!listed.includes(SKILL) || !listed.includes(SKILL_WORDS)) {
      reasons.push("the request does not list the skill");
    }
    const seen = JSON.stringify(asked.at(-1) ?? {});
    if (!seen.includes(done(2))) return [...reasons, "the agent did not run both steps", tail(seen)];
    // `current` named this very session: by the harness's own variable, or, for a harness that sets none
    // (Gemini CLI sets only its marker GEMINI_CLI), as its newest session in this directory.
    // (The output is JSON inside the request's JSON, once more inside a tool's JSON result for Hermes.)
    const rule = BUILTIN_HARNESSES[source].integrations.agent?.sessionVariables.length
      ? "variable"
      : "newest-in-directory";
    if (!namedBy(seen, id, rule)) {
      const output = seen.slice(Math.max(0, seen.indexOf(done(1)) - 1500), seen.indexOf(done(1)));
      reasons.push(`session-bridge current did not name ${id} by the ${rule} rule: ${output}`);
    }

    const written = await BUILTIN_HARNESSES[target].store.list(to.homeFlags[1]!);
    if (written.length !== 1) {
      const output = seen.slice(Math.max(0, seen.indexOf(done(2)) - 1500), seen.indexOf(done(2)));
      return [...reasons, `${target} holds ${written.length} sessions, expected 1: ${output}`];
    }
    const resumed = await to.resume(cwd, written[0]!.id, "Please continue where we left off.");
    if (!resumed.ok) reasons.push(`resume failed: ${resumed.detail}`);
    const carried = JSON.stringify(to.requests().at(-1) ?? {});
    for (const word of [userWord(source), modelWord(source)]) {
      if (!carried.includes(word)) reasons.push(`the resumed ${target} did not send ${word}`);
    }
    return reasons;
  } finally {
    await agent.close();
    await to.close();
  }
}

/**
 * A harness that names no session: Claude Code 1.0 sets only CLAUDECODE (no skills either), so `current` takes
 * its newest session in this directory and says so.
 */
const NAMES_NONE = { harness: "claude-code", version: "1.0.128" } as const;

async function checkNamesNone(work: string, binary?: string): Promise<string[]> {
  mkdirSync(join(work, "project"));
  const cwd = realpathSync(join(work, "project"));
  const env = { PATH: bridgeOnPath(work, binary), SESSION_BRIDGE_HOME: join(work, "bridge") };
  const move = (body: unknown): Move => {
    const seen = JSON.stringify(body);
    if (!seen.includes(ASK)) return { say: `Noted: ${modelWord(NAMES_NONE.harness)}.` };
    return seen.includes(done(1))
      ? { say: "Found it." }
      : { run: marked("session-bridge current --json", 1) };
  };
  const agent = await SOURCES[NAMES_NONE.harness]({ work, cwd, env, move, version: NAMES_NONE.version });
  try {
    const first = await agent.turn(`Remember the word ${userWord(NAMES_NONE.harness)}.`);
    // The session the resumed turn runs in (a resume may continue under a new id).
    const id = await agent.turn(`${ASK}: which session is this?`, first);
    const seen = JSON.stringify(agent.requests().at(-1) ?? {});
    if (namedBy(seen, id, "newest-in-directory")) return [];
    const output = seen.slice(Math.max(0, seen.indexOf(done(1)) - 1500), seen.indexOf(done(1)));
    return [`session-bridge current did not name ${id} by the newest-in-directory rule: ${output}`];
  } finally {
    await agent.close();
  }
}

async function main(): Promise<number> {
  const binary = binaryArg();
  const results: boolean[] = [];
  for (const [i, source] of TARGET_IDS.entries()) {
    if (process.env.SKILL_ONLY && process.env.SKILL_ONLY !== source) continue;
    const target = TARGET_IDS[(i + 1) % TARGET_IDS.length]!;
    results.push(
      await withWork(
        `sb-skill-${source}-`,
        (work) =>
          step(
            `${source}: lists the installed skill, runs current and hands itself to ${target}, which resumes it`,
            () => check(source, target, work, binary),
          ),
      ),
    );
  }
  if (!process.env.SKILL_ONLY || process.env.SKILL_ONLY === "names-none") {
    results.push(
      await withWork(
        "sb-skill-names-none-",
        (work) =>
          step(
            `${NAMES_NONE.harness} ${NAMES_NONE.version} (names no session): current takes its newest session here`,
            () => checkNamesNone(work, binary),
          ),
      ),
    );
  }
  return results.every(Boolean) ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();

/**
 * Whether `current --json`'s output, quoted once or more inside a request's JSON (a backslash per level), names
 * session `id` and then `rule`. Looked up by position with the backslashes taken out: a pattern with a lazy
 * run between the two would try again from every later start on a long request.
 */
function namedBy(request: string, id: string, rule: string): boolean {
  const plain = request.replaceAll("\\", "");
  const named = plain.indexOf(`"id": "${id}"`);
  return named >= 0 && plain.includes(`"rule": "${rule}"`, named);
}
