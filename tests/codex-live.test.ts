/**
 * Codex -> Codex copies checked against the real Codex 0.169.0 (installed in the harness cache; offline,
 * against the fake Responses server): the copy's row must still describe it after Codex itself has run the
 * thread, because Codex re-derives part of the row from the rollout (`session_meta.source` among them).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { installHarness } from "../acceptance/install-harness.ts";
import { codexDriver } from "../lib/harnesses/codex/certify/index.ts";
import { codexHomeDir } from "../lib/harnesses/codex/certify/run.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { runCliJson } from "./helpers/cli.ts";
import { codexFixture, threadRow } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = "0.169.0";

async function liveCodex() {
  const work = tempDir();
  const bin = await installHarness("codex", VERSION);
  const codex = await codexDriver.open({
    work,
    bin,
    version: VERSION,
    mode: "full",
    env: process.env,
    homeVariables: builtinRegistry.harnesses.map((h) => h.home.env),
  });
  const project = join(work, "project");
  mkdirSync(project);
  const cwd = realpathSync(project);
  await codex.warmUp(cwd);
  return { codex, cwd, home: codexHomeDir(join(work, "codex-home")), work };
}

async function handoff(source: string, home: string, cwd: string, work: string) {
  const r = await runCliJson(["handoff", source, "--to", "codex", "--cwd", cwd, "--codex-home", home], {
    SESSION_BRIDGE_HOME: join(work, "bridge"),
  });
  assert.equal(r.code, 0, r.stderr);
  return (r.json.target as { id: string }).id;
}

test("a copied codex exec thread stays in the codex resume picker after codex exec resume (real Codex 0.169.0)", async () => {
  const { codex, cwd, home, work } = await liveCodex();
  try {
    const seeded = await codex.seed(cwd, {
      first: "Please note the word MARIGOLD.",
      tool: "TOOL: echo copied-exec",
      toolCommand: "echo copied-exec",
    });
    assert.equal(threadRow(home, seeded.id)!.source, "exec");
    const copy = await handoff(seeded.id, home, cwd, work);
    assert.equal(await codex.listed(copy, cwd), true);
    const turn = await codex.resume(cwd, copy, "Words after the copy.");
    assert.equal(turn.ok, true, turn.detail);
    const row = threadRow(home, copy)!;
    assert.equal(row.source, "cli");
    assert.equal(row.history_mode, "paginated");
    assert.equal(await codex.listed(copy, cwd), true);
    // The resumed model saw the copied conversation.
    const sent = codex.lastRequest().map((m) => m.text).join("\n");
    assert.match(sent, /MARIGOLD/);
    assert.match(sent, /Words after the copy\./);
  } finally {
    await codex.close();
  }
});

test("a copied legacy rollout resumes in the real Codex 0.169.0 and its row still says legacy afterwards", async () => {
  const { codex, cwd, home, work } = await liveCodex();
  try {
    const legacy = join(work, "legacy.jsonl");
    copyFileSync(codexFixture("0.147.0", "text-turns"), legacy);
    const copy = await handoff(legacy, home, cwd, work);
    assert.equal(threadRow(home, copy)!.history_mode, "legacy");
    assert.equal(threadRow(home, copy)!.cli_version, "0.147.0");
    const turn = await codex.resume(cwd, copy, "A word after the legacy copy.");
    assert.equal(turn.ok, true, turn.detail);
    const sent = codex.lastRequest().map((m) => m.text).join("\n");
    assert.match(sent, /tidy kitchens/);
    assert.match(sent, /A word after the legacy copy\./);
    const row = threadRow(home, copy)!;
    assert.equal(row.history_mode, "legacy");
    assert.equal(await codex.listed(copy, cwd), true);
  } finally {
    await codex.close();
  }
});
