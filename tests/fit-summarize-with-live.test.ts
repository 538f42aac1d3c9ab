/**
 * Issue 33's `--summarize-with` live row: a generated 3 MB Claude Code session handed into the real Codex
 * (the pinned version, installed in the harness cache) with `--summarize-with codex`, Codex itself writing the
 * summary through `codex exec --ephemeral` against the fake Responses server, which enforces a window of
 * 120,000 tokens as OpenAI's API does and answers a request to summarize with its `COMPACT-SUMMARY` text. The
 * summarizing turn is asked about every summarized prompt, leaves no conversation in Codex's store, and the
 * resumed session goes through on its first request holding Codex's summary and the last turn verbatim.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { finished } from "node:stream/promises";
import { dirname, join } from "node:path";
import { harnessDir, installHarness, pinnedVersions } from "../acceptance/install-harness.ts";
import {
  codexEnv,
  codexHomeDir,
  initCodexStore,
  prepareCodexHome,
  runCodex,
} from "../lib/harnesses/codex/certify/run.ts";
import { startFakeResponses } from "../lib/certify-kit/fake-servers/responses.ts";
import type { FakeWindow } from "../lib/certify-kit/fake-servers/window.ts";
import { longSentinels, longSessionTurns, writeLongSession } from "../lib/certify-kit/long-session.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = pinnedVersions().codex!;
const WINDOW = 120_000;
const skip = existsSync(harnessDir("codex", VERSION)) ? false : `codex ${VERSION} is not installed`;

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).sort() : [];

test(
  `a session over the window handed into Codex with --summarize-with codex resumes on its first request with Codex's own summary (real Codex ${VERSION})`,
  {
    skip,
    timeout: 300_000,
  },
  async () => {
    const work = tempDir("sb-summarize-live-");
    const bin = await installHarness("codex", VERSION);
    mkdirSync(join(work, "project"));
    const project = realpathSync(join(work, "project"));
    const spec = { bytes: 3_000_000, sessionId: "5e551011-0000-4000-8000-000000000022", cwd: project };
    const source = join(work, "long.jsonl");
    const out = createWriteStream(source);
    await writeLongSession(spec, out);
    out.end();
    await finished(out);
    const turns = longSessionTurns(spec);
    const window: FakeWindow = { tokens: WINDOW, refused: [] };
    const logPath = join(work, "requests.jsonl");
    const server = await startFakeResponses({ logPath, window });
    try {
      const home = join(work, "codex-home");
      prepareCodexHome(home, server.url);
      // The user's environment, as session-bridge is run: the codex on PATH answers from its own home.
      const env = codexEnv(home, `${dirname(bin)}:${process.env.PATH ?? "/usr/bin:/bin"}`);
      await initCodexStore(bin, home, project, env);
      const sessions = join(codexHomeDir(home), "sessions");
      const before = filesUnder(sessions);
      const handed = await runCliJson(
        [
          "handoff",
          source,
          "--to",
          "codex",
          "--context",
          String(WINDOW),
          "--summarize-with",
          "codex",
          "--codex-home",
          codexHomeDir(home),
        ],
        { ...env, SESSION_BRIDGE_HOME: join(work, "bridge") },
      );
      assert.equal(handed.code, 0, handed.stderr);
      const report = JSON.stringify(handed.json.report);
      assert.match(report, /a summary written by codex of the first \d+ messages/);

      // The summarizing turn: one request, asked about every prompt it summarized; nothing of it kept.
      const asked = readFileSync(logPath, "utf8").split("\n").filter((l) =>
        l.includes("Summarize this conversation")
      );
      assert.equal(asked.length, 1, "Codex was asked once");
      const summarized = Number(/of the first \d+ messages \((\d+) user prompts/.exec(report)![1]);
      const missing = [...Array(summarized).keys()].filter((i) =>
        !asked[0]!.includes(longSentinels(i).prompt)
      );
      assert.deepEqual(missing, [], "every summarized prompt is in what Codex was asked");
      const id = (handed.json.target as { id: string }).id;
      const added = filesUnder(sessions).filter((f) => !before.includes(f) && f.endsWith(".jsonl"));
      assert.equal(added.length, 1, `only the handed-off rollout is new: ${added.join(", ")}`);
      assert.ok(added[0]!.includes(id), "and it is the handed-off session's");

      const run = await runCodex(
        bin,
        project,
        ["exec", "--skip-git-repo-check", "--json", "resume", id, "NEXT-PROMPT"],
        180_000,
        env,
      );
      assert.equal(run.code, 0, `${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`);
      assert.deepEqual(window.refused, [], "no request was over the window");
      const resumed = readFileSync(logPath, "utf8").split("\n").filter((l) => l.includes("NEXT-PROMPT"));
      assert.ok(resumed.length > 0, "the resumed turn reached the model");
      assert.match(resumed[0]!, /COMPACT-SUMMARY/, "Codex's summary is sent");
      assert.ok(
        resumed[0]!.includes(longSentinels(turns - 1).output),
        "the last turn's tool output is sent verbatim",
      );
      assert.ok(
        !resumed[0]!.includes(longSentinels(0).output),
        "the first turn's tool output is summarized away",
      );
    } finally {
      await server.close();
    }
  },
);
