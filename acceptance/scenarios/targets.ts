/**
 * A fresh target harness for a live scenario: its pinned binary, a private home set up the way the matrix
 * adapters do it (from the same run-* helpers), its fake model server, and the raw request bodies that server
 * received. Scenarios need the bodies in the target's own wire format (call ids, outputs), which the matrix's
 * flattened view does not keep.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { HarnessName } from "../../lib/harnesses/registry.ts";
import { installHarness, pinnedVersion } from "../install-harness.ts";
import {
  claudeConfigDir,
  claudeEnv,
  prepareClaudeHome,
  runClaude,
} from "../../lib/harnesses/claude-code/certify/run.ts";
import {
  codexEnv,
  codexHomeDir,
  initCodexStore,
  prepareCodexHome,
  runCodex,
} from "../../lib/harnesses/codex/certify/run.ts";
import {
  hermesEnv,
  offlineConfig,
  runHermes,
  writeHermesHome,
} from "../../lib/harnesses/hermes/certify/run.ts";
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
  opencodeDataHome,
  opencodeEnv,
  opencodeFolders,
  parseRunEvents,
  runOpencode,
  writeOpencodeConfig,
} from "../../lib/harnesses/opencode/certify/run.ts";
import { opencodeScript, turnRequests as opencodeTurns } from "../../lib/harnesses/opencode/certify/sent.ts";
import {
  copilotEnv,
  copilotFolders,
  ONE_SHOT_FLAGS as COPILOT_ONE_SHOT_FLAGS,
  runCopilot,
} from "../../lib/harnesses/copilot-cli/certify/run.ts";
import { copilotScript, turnRequests as copilotTurns } from "../../lib/harnesses/copilot-cli/certify/sent.ts";
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
import { startFakeAnthropic } from "../../lib/certify-kit/fake-servers/anthropic.ts";
import { startFakeGemini } from "../../lib/certify-kit/fake-servers/gemini.ts";
import { startFakeResponses } from "../../lib/certify-kit/fake-servers/responses.ts";
import { startFakeChatCompletions } from "../../lib/certify-kit/fake-servers/chat-completions.ts";
import { readRequestLog } from "../../lib/certify-kit/request-log.ts";
import { tail } from "../../lib/certify-kit/spawn.ts";

export type Body = Record<string, unknown>;

export interface LiveTarget {
  id: HarnessName;
  /** session-bridge flags that point at this target's private home. */
  homeFlags: string[];
  /** Resumes a session with the real binary from `cwd`, sending `prompt` as the next turn. */
  resume(cwd: string, sessionId: string, prompt: string): Promise<{ ok: boolean; detail: string }>;
  /** Bodies of the conversation requests the fake server received, oldest first. */
  requests(): Body[];
  close(): Promise<void>;
}

const logged = (path: string) => readRequestLog<Body>(path);

async function claudeTarget(work: string): Promise<LiveTarget> {
  const bin = await installHarness("claude-code");
  const home = join(work, "claude-home");
  const logPath = join(work, "anthropic-requests.jsonl");
  prepareClaudeHome(home);
  const server = await startFakeAnthropic({ logPath });
  return {
    id: "claude-code",
    homeFlags: ["--claude-home", claudeConfigDir(home)],
    async resume(cwd, sessionId, prompt) {
      const r = await runClaude({
        bin,
        home,
        cwd,
        baseEnv: claudeEnv(home, server.url, process.env.PATH),
        args: ["-p", "--resume", sessionId, prompt],
      });
      return { ok: r.code === 0, detail: `exit ${r.code ?? r.signal}: ${tail(r.stderr + r.stdout)}` };
    },
    // Title requests carry no tools; only conversation turns do.
    requests: () => logged(logPath).filter((b) => Array.isArray(b.tools) && b.tools.length > 0),
    close: () => server.close(),
  };
}

async function codexTarget(work: string): Promise<LiveTarget> {
  const bin = await installHarness("codex", pinnedVersion("codex"));
  const home = join(work, "codex-home");
  const logPath = join(work, "responses-requests.jsonl");
  const server = await startFakeResponses({ logPath });
  prepareCodexHome(home, server.url);
  const env = codexEnv(home, process.env.PATH);
  // A handoff needs the state database a first Codex run creates.
  await initCodexStore(bin, home, work, env);
  return {
    id: "codex",
    homeFlags: ["--codex-home", codexHomeDir(home)],
    async resume(cwd, sessionId, prompt) {
      const r = await runCodex(
        bin,
        cwd,
        ["exec", "--skip-git-repo-check", "--json", "resume", sessionId, prompt],
        120_000,
        env,
      );
      return { ok: r.code === 0, detail: `exit ${r.code}: ${tail(r.stderr)}` };
    },
    requests: () =>
      logged(logPath).filter((r) => r.method === "POST" && /\/responses$/.test(String(r.path))).map((r) =>
        r.body as Body
      ),
    close: () => server.close(),
  };
}

async function hermesTarget(work: string): Promise<LiveTarget> {
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
  // A user's Hermes has a state.db; `sessions list` creates it without a model call, as a first run would.
  const init = await runHermes(exe, ["sessions", "list"], { cwd: tmp, env });
  if (init.code !== 0) throw new Error(`hermes sessions list failed: ${tail(init.stderr)}`);
  return {
    id: "hermes",
    homeFlags: ["--hermes-home", hermesHome],
    async resume(cwd, sessionId, prompt) {
      const r = await runHermes(exe, ["chat", "-Q", "--resume", sessionId, "-q", prompt], { cwd, env });
      const ok = r.code === 0 && !r.timedOut && r.sessionId === sessionId;
      return { ok, detail: `exit ${r.code}, session_id ${r.sessionId}: ${tail(r.stderr)}` };
    },
    // Auxiliary calls (titles, summaries) are not streamed; conversation turns always are.
    requests: () =>
      logged(logPath).filter((r) => String(r.path).endsWith("/chat/completions")).map((r) => r.body as Body)
        .filter((b) => b?.stream === true),
    close: () => server.close(),
  };
}

async function geminiTarget(work: string): Promise<LiveTarget> {
  const bin = await installHarness("gemini-cli");
  const home = join(work, "gemini-home");
  const logPath = join(work, "gemini-requests.jsonl");
  const server = await startFakeGemini({ logPath });
  prepareGeminiHome(home);
  const env = geminiEnv(home, server.url, process.env.PATH);
  // A user's Gemini CLI has its store (projects.json, a project's folders): listing sessions in some other
  // folder makes it without a model call, as a first run would, so the handoff adds to it.
  const elsewhere = join(work, "elsewhere");
  mkdirSync(elsewhere, { recursive: true });
  const init = await runGemini(bin, elsewhere, ["--list-sessions"], env, 60_000);
  if (init.code !== 0) throw new Error(`gemini --list-sessions failed: ${tail(init.stderr || init.stdout)}`);
  return {
    id: "gemini-cli",
    homeFlags: ["--gemini-home", home],
    async resume(cwd, sessionId, prompt) {
      const r = await runGemini(bin, cwd, [...ONE_SHOT_FLAGS, "--resume", sessionId, "-p", prompt], env);
      const out = parseJsonOutput(r.stdout);
      // Resumed means the same session answered: the one-shot JSON names the session it ran in.
      const ok = r.code === 0 && !r.timedOut && out.error === undefined && out.sessionId === sessionId;
      return { ok, detail: `exit ${r.code}, session_id ${out.sessionId}: ${tail(out.error ?? r.stderr)}` };
    },
    // Only streamGenerateContent calls are conversation turns; side calls (router, titles) are not.
    requests: () => turnRequests(logPath),
    close: () => server.close(),
  };
}

async function opencodeTarget(work: string): Promise<LiveTarget> {
  const bin = await installHarness("opencode");
  const folders = opencodeFolders(join(work, "opencode"));
  const logPath = join(work, "chat-requests.jsonl");
  const server = await startFakeChatCompletions({ logPath, script: opencodeScript });
  writeOpencodeConfig(folders, opencodeOfflineConfig(server.url));
  const env = opencodeEnv(folders, process.env.PATH);
  // A user's OpenCode has its opencode.db; `session list` creates it (every migration applied) without a model
  // call, as a first run would.
  const init = await runOpencode(bin, ["session", "list"], { cwd: folders.tmp, env });
  if (init.code !== 0) throw new Error(`opencode session list failed: ${tail(init.stderr || init.stdout)}`);
  return {
    id: "opencode",
    // The model this OpenCode runs is set in its private configuration folder, which the handoff (run with the
    // scenario's environment, not OpenCode's) cannot see: named here as a user would with --model.
    homeFlags: ["--opencode-home", opencodeDataHome(folders), "--model", "fake/fake-model"],
    async resume(cwd, sessionId, prompt) {
      const r = await runOpencode(bin, ["run", "--format", "json", "--session", sessionId], {
        cwd,
        env,
        prompt,
      });
      const out = parseRunEvents(r.stdout);
      // Resumed means the same session answered: its JSON events name the session they ran in.
      const ok = r.code === 0 && !r.timedOut && out.error === undefined && out.sessionId === sessionId;
      return { ok, detail: `exit ${r.code}, session ${out.sessionId}: ${tail(out.error ?? r.stderr)}` };
    },
    // Title requests are no conversation turns.
    requests: () => opencodeTurns(logPath).map((r) => ({ ...r })),
    close: () => server.close(),
  };
}

async function copilotTarget(work: string): Promise<LiveTarget> {
  const bin = await installHarness("copilot-cli");
  const folders = copilotFolders(join(work, "copilot-cli"));
  const logPath = join(work, "chat-requests.jsonl");
  const server = await startFakeChatCompletions({ logPath, script: copilotScript });
  const env = copilotEnv(folders, server.url, process.env);
  return {
    id: "copilot-cli",
    homeFlags: ["--copilot-home", folders.copilot],
    async resume(cwd, sessionId, prompt) {
      const r = await runCopilot(bin, cwd, [
        ...COPILOT_ONE_SHOT_FLAGS,
        `--resume=${sessionId}`,
        `--prompt=${prompt}`,
      ], env);
      const out = parsePromptOutput(r.stdout);
      // Resumed means the same session answered: the closing `result` line names the session it ran in.
      const ok = r.code === 0 && !r.timedOut && out.error === undefined && out.sessionId === sessionId;
      return { ok, detail: `exit ${r.code}, session ${out.sessionId}: ${tail(out.error ?? r.stderr)}` };
    },
    // Every request Copilot sends is a conversation turn (no title or side request was seen).
    requests: () => copilotTurns(logPath).map((r) => ({ ...r })),
    close: () => server.close(),
  };
}

async function piTarget(work: string): Promise<LiveTarget> {
  const bin = await installHarness("pi");
  const folders = piFolders(join(work, "pi"));
  const logPath = join(work, "chat-requests.jsonl");
  const server = await startFakeChatCompletions({ logPath });
  // The fake server as Pi's configured default model, so a session handed in continues on it.
  writeOfflineAgent(folders, server.url);
  const env = piEnv(folders, process.env.PATH);
  // A user's agent folder has its auth.json; listing the models writes it without a model call, as a first run would.
  const init = await runPi(bin, ["--list-models"], { cwd: folders.tmp, env });
  if (init.code !== 0) throw new Error(`pi --list-models failed: ${tail(init.stderr || init.stdout)}`);
  return {
    id: "pi",
    homeFlags: ["--pi-home", folders.agent],
    async resume(cwd, sessionId, prompt) {
      const r = await runPi(bin, [...JSON_MODE, "--session", sessionId], { cwd, env, prompt });
      const out = parseJsonEvents(r.stdout);
      // Resumed means the same session answered: the header Pi prints first names the session it runs in.
      const ok = r.code === 0 && !r.timedOut && out.error === undefined && out.sessionId === sessionId;
      return { ok, detail: `exit ${r.code}, session ${out.sessionId}: ${tail(out.error ?? r.stderr)}` };
    },
    // Pi asks the model for nothing but conversation turns here (no titles; summaries only on compaction).
    requests: () => loggedChatRequests(logPath).map((r) => ({ ...r })),
    close: () => server.close(),
  };
}

const STARTERS: Record<HarnessName, (work: string) => Promise<LiveTarget>> = {
  "claude-code": claudeTarget,
  codex: codexTarget,
  hermes: hermesTarget,
  "gemini-cli": geminiTarget,
  opencode: opencodeTarget,
  "copilot-cli": copilotTarget,
  pi: piTarget,
};

export const TARGET_IDS = Object.keys(STARTERS) as HarnessName[];

export function startTarget(id: HarnessName, work: string): Promise<LiveTarget> {
  mkdirSync(work, { recursive: true });
  return STARTERS[id](work);
}
