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
import { createWriteStream, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { finished } from "node:stream/promises";
import { join } from "node:path";
import { installHarness } from "../acceptance/install-harness.ts";
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

const VERSION = "0.171.0";
const WINDOW = 120_000;

/** The generated session handed into Codex (fitted or whole) and resumed there once against the fake. */
async function resumedInCodex(fit: "auto" | "off") {
  const work = tempDir("sb-fit-live-");
  const bin = await installHarness("codex", VERSION);
  const cwd = join(work, "project");
  mkdirSync(cwd);
  const project = realpathSync(cwd);
  const spec = { bytes: 3_000_000, sessionId: "5e551011-0000-4000-8000-000000000003", cwd: project };
  const source = join(work, "long.jsonl");
  const out = createWriteStream(source);
  await writeLongSession(spec, out);
  out.end();
  await finished(out);
  const window: FakeWindow = { tokens: WINDOW, refused: [] };
  const logPath = join(work, "requests.jsonl");
  const server = await startFakeResponses({ logPath, window });
  try {
    const home = join(work, "codex-home");
    prepareCodexHome(home, server.url);
    const env = codexEnv(home, process.env.PATH);
    await initCodexStore(bin, home, project, env);
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
      ],
      { SESSION_BRIDGE_HOME: join(work, "bridge") },
    );
    assert.equal(handed.code, 0, handed.stderr);
    const id = (handed.json.target as { id: string }).id;
    const args = ["exec", "--skip-git-repo-check", "--json", "resume", id, "NEXT-PROMPT"];
    const run = await runCodex(bin, project, args, 180_000, env);
    const requests = readFileSync(logPath, "utf8").split("\n").filter((l) => l.includes("NEXT-PROMPT"));
    return { run, window, requests, turns: longSessionTurns(spec) };
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
