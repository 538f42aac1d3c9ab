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
import { startFakeAnthropic } from "../../lib/certify-kit/fake-servers/anthropic.ts";
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

const STARTERS: Record<HarnessName, (work: string) => Promise<LiveTarget>> = {
  "claude-code": claudeTarget,
  codex: codexTarget,
  hermes: hermesTarget,
  // STUB (h-gread): the Gemini CLI live target is certify's work (h-gcert).
  "gemini-cli": () => Promise.reject(new Error("gemini-cli: live target not yet built")),
};

export const TARGET_IDS = Object.keys(STARTERS) as HarnessName[];

export function startTarget(id: HarnessName, work: string): Promise<LiveTarget> {
  mkdirSync(work, { recursive: true });
  return STARTERS[id](work);
}
