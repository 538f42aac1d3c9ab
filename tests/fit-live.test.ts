/**
 * Issue 33's live row: a generated 3 MB Claude Code session (a sentinel in every prompt, tool output and reply)
 * handed off into the real Codex 0.171.0 (installed in the harness cache), which resumes it against the fake
 * Responses server enforcing a window of 120,000 tokens the way OpenAI's API does (400
 * context_length_exceeded). Handed off whole, Codex's resume fails as Codex fails on a real overflow; fitted (the
 * default), it goes through on the first request, which holds every prompt's sentinel and the last turn's tool
 * output verbatim.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { harnessDir, installHarness, pinnedVersions } from "../acceptance/install-harness.ts";
import { homeArgs } from "../lib/certify/bridge.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import {
  codexEnv,
  codexHomeDir,
  initCodexStore,
  prepareCodexHome,
  runCodex,
} from "../lib/harnesses/codex/certify/run.ts";
import { startFakeResponses } from "../lib/certify-kit/fake-servers/responses.ts";
import type { FakeWindow } from "../lib/certify-kit/fake-servers/window.ts";
import type { Turn } from "../lib/certify-kit/driver.ts";
import { longSentinels, longSessionTurns, writeLongSession } from "../lib/certify-kit/long-session.ts";
import { runCliJson } from "./helpers/cli.ts";
import { openOffline } from "./helpers/offline-harness.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = "0.171.0";
const WINDOW = 120_000;

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).sort() : [];

/**
 * The generated session handed into Codex (fitted or whole, with `flags`) and resumed there once against the
 * fake. The handoff runs as a user's shell runs it: the codex on PATH answers from the same home.
 */
async function resumedInCodex(fit: "auto" | "off", flags: string[] = []) {
  const work = tempDir("sb-fit-live-");
  const bin = await installHarness("codex", VERSION);
  const cwd = join(work, "project");
  mkdirSync(cwd);
  const project = realpathSync(cwd);
  const spec = { bytes: 3_000_000, sessionId: "5e551011-0000-4000-8000-000000000003", cwd: project };
  const source = join(work, "long.jsonl");
  await writeLongSession(spec, source);
  const window: FakeWindow = { tokens: WINDOW, refused: [] };
  const logPath = join(work, "requests.jsonl");
  const server = await startFakeResponses({ logPath, window });
  try {
    const home = join(work, "codex-home");
    prepareCodexHome(home, server.url);
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
        "--fit",
        fit,
        "--context",
        String(WINDOW),
        "--codex-home",
        codexHomeDir(home),
        ...flags,
      ],
      { ...env, SESSION_BRIDGE_HOME: join(work, "bridge") },
    );
    assert.equal(handed.code, 0, handed.stderr);
    const id = (handed.json.target as { id: string }).id;
    const rollouts = filesUnder(sessions).filter((f) => !before.includes(f) && f.endsWith(".jsonl"));
    // What the model was asked before the resume (by a summarizing turn; nothing otherwise).
    const asked = existsSync(logPath) ? readFileSync(logPath, "utf8").split("\n").filter(Boolean) : [];
    const args = ["exec", "--skip-git-repo-check", "--json", "resume", id, "NEXT-PROMPT"];
    const run = await runCodex(bin, project, args, 180_000, env);
    const requests = readFileSync(logPath, "utf8").split("\n").filter((l) => l.includes("NEXT-PROMPT"));
    const report = JSON.stringify(handed.json.report);
    return { run, window, requests, turns: longSessionTurns(spec), id, rollouts, asked, report };
  } finally {
    await server.close();
  }
}

test("a 3 MB session handed into Codex whole is refused by a window it is over, as Codex knows the error (real Codex 0.171.0)", async () => {
  const { run, window } = await resumedInCodex("off");
  assert.notEqual(run.code, 0);
  assert.equal(window.refused.length > 0, true);
  assert.match(run.stdout, /ran out of room in the model's context window/);
});

test("a 3 MB session handed into Codex fitted resumes on the first try, the request holding every prompt and the last turn verbatim (real Codex 0.171.0)", async () => {
  const { run, window, requests, turns } = await resumedInCodex("auto");
  assert.equal(run.code, 0, `${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`);
  assert.deepEqual(window.refused, [], "no request was over the window");
  assert.equal(requests.length > 0, true, "the resumed turn reached the model");
  const first = requests[0]!;
  const missing = [...Array(turns).keys()].filter((i) => !first.includes(longSentinels(i).prompt));
  assert.deepEqual(missing, [], "every prompt's sentinel is in the request");
  assert.ok(first.includes(longSentinels(turns - 1).output), "the last turn's tool output is sent verbatim");
  assert.ok(!first.includes(longSentinels(0).output), "the first turn's tool output is summarized away");
});

test("a 3 MB session handed into Codex with --summarize-with codex resumes on the first try with Codex's own summary, the summarizing turn not kept (real Codex 0.171.0)", async () => {
  const { run, window, requests, turns, id, rollouts, asked, report } = await resumedInCodex("auto", [
    "--summarize-with",
    "codex",
  ]);
  assert.match(report, /a summary written by codex of the first \d+ messages/);
  // The summarizing turn (`codex exec --ephemeral`): one request, asked about every prompt it summarized.
  const summarizing = asked.filter((l) => l.includes("Summarize this conversation"));
  assert.equal(summarizing.length, 1, "Codex was asked once");
  const summarized = Number(/of the first \d+ messages \((\d+) user prompts/.exec(report)![1]);
  const missing = [...Array(summarized).keys()].filter((i) =>
    !summarizing[0]!.includes(longSentinels(i).prompt)
  );
  assert.deepEqual(missing, [], "every summarized prompt is in what Codex was asked");
  assert.deepEqual(rollouts.map((f) => f.includes(id)), [true], "the handed-off rollout is the only new one");
  // Resumed: the first request holds Codex's summary and the last turn verbatim, within the window.
  assert.equal(run.code, 0, `${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`);
  assert.deepEqual(window.refused, [], "no request was over the window");
  assert.match(requests[0]!, /COMPACT-SUMMARY/, "Codex's summary is sent");
  assert.ok(
    requests[0]!.includes(longSentinels(turns - 1).output),
    "the last turn's tool output is sent verbatim",
  );
  assert.ok(
    !requests[0]!.includes(longSentinels(0).output),
    "the first turn's tool output is summarized away",
  );
});

/**
 * The same row for every registered harness, through its certify driver (its real binary, offline, the fake
 * server enforcing the window). Handed off whole, each harness's resume meets the window as it meets a real
 * one: most fail on the API's refusal; Hermes Agent and Copilot CLI compact the history themselves first (with
 * the model, so what survives is theirs to choose). Fitted, the session resumes on the first try with every
 * prompt's sentinel and the last turn verbatim; and a hop back (into Claude Code; from Claude Code into Codex)
 * with room for it all restores the full history from what the target keeps on disk. Claude Code, whose copy of
 * a Claude Code session is never fitted, is handed the session as Codex writes it. Skipped where the pinned
 * binary is not installed.
 */
const HOP_BACK_CONTEXT = "100000000";
/** Harnesses whose resume compacts a history over the window on its own before its first request. */
const COMPACTS_ON_ITS_OWN = new Set(["hermes", "copilot-cli"]);

/** The generated session handed into `harness` (fitted or whole), resumed once; `then` runs before closing. */
async function resumedLong(
  harness: string,
  version: string,
  fit: "auto" | "off",
  then: (resumed: {
    turn: Turn;
    window: FakeWindow;
    sent: string;
    turns: number;
    hop: (to: string) => Promise<string>;
  }) => Promise<void> | void,
) {
  const work = tempDir("sb-fit-live-");
  const window: FakeWindow = { tokens: WINDOW, refused: [] };
  const { under, cwd } = await openOffline(harness, version, work, window);
  try {
    const spec = { bytes: 3_000_000, sessionId: "5e551011-0000-4000-8000-000000000007", cwd };
    const long = join(work, "long.jsonl");
    await writeLongSession(spec, long);
    const bridge = { SESSION_BRIDGE_HOME: join(work, "bridge") };
    let source = long;
    if (harness === "claude-code") {
      source = join(work, "long-codex.jsonl");
      const converted = await runCliJson(
        ["convert", long, "--to", "codex", "--fit", "off", "-o", source],
        bridge,
      );
      assert.equal(converted.code, 0, converted.stderr);
    }
    const env = { ...bridge, ...(under.configEnv?.() ?? {}) };
    const homes = homeArgs(under.homes(), builtinRegistry);
    const handed = await runCliJson(
      ["handoff", source, "--to", harness, "--cwd", cwd, "--context", String(WINDOW), "--fit", fit, ...homes],
      env,
    );
    assert.equal(handed.code, 0, handed.stderr);
    const id = (handed.json.target as { id: string }).id;
    const turn = await under.resume(cwd, id, "NEXT-PROMPT");
    const sent = under.lastRequest().map((m) => m.text).join("\n");
    const hop = async (to: string) => {
      const back = join(work, `back-${to}.jsonl`);
      const args = ["convert", id, "--from", harness, "--to", to, "--context", HOP_BACK_CONTEXT, "-o", back];
      const r = await runCliJson([...args, ...homes], env);
      assert.equal(r.code, 0, r.stderr);
      return readFileSync(back, "utf8");
    };
    await then({ turn, window, sent, turns: longSessionTurns(spec), hop });
  } finally {
    await under.close();
  }
}

for (const harness of builtinRegistry.harnesses.map((h) => h.name)) {
  const version = pinnedVersions()[harness]!;
  const skip = existsSync(harnessDir(harness, version)) ? false : `${harness} ${version} is not installed`;
  const own = COMPACTS_ON_ITS_OWN.has(harness);
  test(
    `${harness} ${version}: a session over the window handed off whole ${
      own ? "is compacted by the harness itself before its first request" : "fails on the API's refusal"
    }`,
    { skip, timeout: 300_000 },
    async () => {
      await resumedLong(harness, version, "off", ({ turn, window }) => {
        if (own) {
          assert.equal(turn.ok, true, turn.detail);
          assert.deepEqual(window.refused, [], "no request was over the window");
        } else {
          assert.equal(turn.ok, false, "the resume fails");
          assert.ok(window.refused.length > 0, "the window refused a request");
        }
      });
    },
  );
  test(
    `${harness} ${version}: a session over the window resumes fitted on the first try, every prompt and the last turn sent, and a hop back restores it whole`,
    { skip, timeout: 300_000 },
    async () => {
      await resumedLong(harness, version, "auto", async ({ turn, window, sent, turns, hop }) => {
        assert.equal(turn.ok, true, turn.detail);
        assert.deepEqual(window.refused, [], "no request was over the window");
        const missing = [...Array(turns).keys()].filter((i) => !sent.includes(longSentinels(i).prompt));
        assert.deepEqual(missing, [], "every prompt's sentinel is in the request");
        assert.ok(
          sent.includes(longSentinels(turns - 1).output),
          "the last turn's tool output is sent verbatim",
        );
        assert.ok(!sent.includes(longSentinels(0).output), "the first turn's tool output is summarized away");

        // The hop back: what the target keeps on disk is the whole history again, once there is room for it
        // (into Codex from Claude Code, whose copy of its own session would keep the records as they are).
        const to = harness === "claude-code" ? "codex" : "claude-code";
        const lines = await hop(to);
        const lost = [...Array(turns).keys()].filter((i) => !lines.includes(longSentinels(i).output));
        assert.deepEqual(lost, [], "every turn's tool output is back");
        const compactionRecord = to === "codex" ? '"type":"compacted"' : "compact_boundary";
        assert.ok(!lines.includes(compactionRecord), "the history is whole, not compacted");
      });
    },
  );
}
