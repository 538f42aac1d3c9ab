/**
 * Issue 33, `--summarize-with HARNESS` live for every summarizer but Codex (whose row, summarizing and then
 * resuming, is in tests/fit-live.test.ts): a generated 3 MB Claude Code session fitted for Codex's window, its
 * summary written by the real binary of Claude Code, Pi, Gemini CLI, OpenCode or Hermes Agent (harness cache),
 * run offline as a user's shell runs it against the kit's fake model server. Each is asked about every prompt
 * it summarizes, its answer is the summary written, and it keeps nothing in its own list afterwards:
 * Claude Code and Pi run a turn they do not keep; Gemini CLI, OpenCode and Hermes Agent delete theirs with their
 * own command. Skipped where the pinned binary is not installed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { harnessDir, installHarness, pinnedVersions } from "../acceptance/install-harness.ts";
import { offlineOpenCode } from "../acceptance/opencode-offline.ts";
import { startFakeAnthropic } from "../lib/certify-kit/fake-servers/anthropic.ts";
import { startFakeChatCompletions } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { startFakeGemini } from "../lib/certify-kit/fake-servers/gemini.ts";
import { longSentinels, writeLongSession } from "../lib/certify-kit/long-session.ts";
import { claudeConfigDir, claudeEnv, prepareClaudeHome } from "../lib/harnesses/claude-code/certify/run.ts";
import { geminiEnv, geminiStoreDir, prepareGeminiHome } from "../lib/harnesses/gemini-cli/certify/run.ts";
import { hermesEnv, offlineConfig, writeHermesHome } from "../lib/harnesses/hermes/certify/run.ts";
import { piEnv, piFolders, writeOfflineAgent } from "../lib/harnesses/pi/certify/run.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

/** A summarizer's binary set up offline: its environment, what its model was sent, what its list still holds. */
interface Summarizing {
  env: Record<string, string>;
  /** The raw request lines its fake model server logged. */
  requests(): string[];
  /** The conversations its store still keeps, as their files or ids. */
  kept(): string[];
  close(): Promise<void>;
}

/** The files under `dir` whose names match `pattern`, relative to it. */
const filesUnder = (dir: string, pattern: RegExp): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => pattern.test(f)).sort()
    : [];

const loggedLines = (path: string): string[] =>
  existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];

/** The ids in `table` of the SQLite store at `path`. */
function rowIds(path: string, table: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(`SELECT id FROM ${table}`).all().map((row) => String(row.id));
  } finally {
    db.close();
  }
}

/** `bin`'s folder first on PATH, as a user who installed it has it. */
const pathWith = (bin: string) => `${dirname(bin)}:${process.env.PATH ?? "/usr/bin:/bin"}`;

const SETUPS: Record<string, (work: string, bin: string) => Promise<Summarizing>> = {
  "claude-code": async (work, bin) => {
    const home = join(work, "claude");
    prepareClaudeHome(home);
    const log = join(work, "anthropic.jsonl");
    const server = await startFakeAnthropic({ logPath: log });
    return {
      env: claudeEnv(home, server.url, pathWith(bin)),
      requests: () => loggedLines(log),
      kept: () => filesUnder(join(claudeConfigDir(home), "projects"), /\.jsonl$/),
      close: () => server.close(),
    };
  },
  pi: async (work, bin) => {
    const folders = piFolders(join(work, "pi"));
    const log = join(work, "chat.jsonl");
    const server = await startFakeChatCompletions({ logPath: log });
    writeOfflineAgent(folders, server.url);
    return {
      env: piEnv(folders, pathWith(bin)),
      requests: () => loggedLines(log),
      kept: () => filesUnder(folders.agent, /\.jsonl$/),
      close: () => server.close(),
    };
  },
  "gemini-cli": async (work, bin) => {
    const home = join(work, "gemini");
    prepareGeminiHome(home);
    const log = join(work, "gemini.jsonl");
    const server = await startFakeGemini({ logPath: log });
    return {
      env: geminiEnv(home, server.url, pathWith(bin)),
      requests: () => loggedLines(log),
      kept: () => filesUnder(join(geminiStoreDir(home), "tmp"), /(^|\/)session-[^/]*\.jsonl?$/),
      close: () => server.close(),
    };
  },
  opencode: async (work, bin) => {
    const oc = await offlineOpenCode(join(work, "opencode"));
    const env = Object.fromEntries(
      Object.entries(oc.env).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return {
      env: { ...env, PATH: pathWith(bin) },
      requests: () => oc.requests().map((r) => JSON.stringify(r)),
      kept: () => rowIds(join(oc.home, "opencode.db"), "session"),
      close: () => oc.close(),
    };
  },
  hermes: async (work, bin) => {
    const home = join(work, "home");
    const hermesHome = join(home, ".hermes");
    const tmp = join(work, "tmp");
    for (const dir of [hermesHome, tmp]) mkdirSync(dir, { recursive: true });
    const log = join(work, "chat.jsonl");
    const server = await startFakeChatCompletions({ logPath: log });
    writeHermesHome(hermesHome, offlineConfig(server.url), pinnedVersions().hermes!);
    return {
      env: hermesEnv(bin, home, hermesHome, tmp),
      requests: () => loggedLines(log),
      kept: () => rowIds(join(hermesHome, "state.db"), "sessions"),
      close: () => server.close(),
    };
  },
};

for (const [harness, setUp] of Object.entries(SETUPS)) {
  const version = pinnedVersions()[harness]!;
  const skip = existsSync(harnessDir(harness, version)) ? false : `${harness} ${version} is not installed`;
  test(
    `--summarize-with ${harness}: the real ${harness} ${version} writes the summary of a session fitted for Codex, asked about every prompt it summarizes, and keeps nothing in its list`,
    { skip, timeout: 300_000 },
    async () => {
      const work = realpathSync(tempDir("sb-summarize-live-"));
      const cwd = join(work, "project");
      mkdirSync(cwd);
      const source = join(work, "long.jsonl");
      await writeLongSession(
        { bytes: 3_000_000, sessionId: "5e551011-0000-4000-8000-000000000033", cwd },
        source,
      );
      const summarizing = await setUp(work, await installHarness(harness, version));
      try {
        const out = join(work, "codex.jsonl");
        const args = ["convert", source, "--to", "codex", "--context", "120000", "--summarize-with", harness];
        const r = await runCliJson([...args, "-o", out], summarizing.env, cwd);
        assert.equal(r.code, 0, r.stderr);
        const report = JSON.stringify(r.json.report);
        assert.match(report, new RegExp(`a summary written by ${harness} of the first \\d+ messages`));
        assert.doesNotMatch(report, /summarizer-conversation-kept|summary-not-used/);

        // Asked about every prompt it summarized (Gemini CLI's and OpenCode's side request for a title carries
        // the prompt too).
        const asked = summarizing.requests().filter((l) => l.includes("Summarize this conversation"));
        const summarized = Number(/of the first \d+ messages \((\d+) user prompts/.exec(report)![1]);
        assert.ok(summarized > 1, report);
        const holdingAll = asked.filter((l) =>
          [...Array(summarized).keys()].every((i) => l.includes(longSentinels(i).prompt))
        );
        assert.ok(holdingAll.length >= 1, `a request asks about every summarized prompt (${asked.length})`);

        // Its answer (each fake model answers "ASSISTANT-REPLY: ...") is the summary Codex's model is sent.
        assert.ok(!readFileSync(source, "utf8").includes("ASSISTANT-REPLY"));
        assert.match(readFileSync(out, "utf8"), /ASSISTANT-REPLY/);
        assert.deepEqual(summarizing.kept(), [], `${harness} keeps no conversation of the summarizing turn`);
      } finally {
        await summarizing.close();
      }
    },
  );
}
