import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hermes } from "../lib/harnesses/hermes/index.ts";
import { sessionLocator } from "../lib/harnesses/hermes/profiles.ts";
import { wholeLines } from "../lib/io/rendered.ts";
import { claudeFixture, seedClaudeHome } from "./helpers/fixtures.ts";
import { capturedIds, HERMES_VERSIONS, hermesFixture } from "./helpers/hermes.ts";
import { conversationCore } from "./helpers/ir-core.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";

const dir = tempDir();

async function exportLine(db: string, id: string): Promise<{ line: string; live: string }> {
  const session = await hermes.store.read(sessionLocator(db, id));
  let line = "";
  for await (
    const l of wholeLines(
      hermes.store.render(session, { id: session.meta.id, cwd: "", now: new Date(), stubOpenCalls: false }),
    )
  ) {
    line += l;
  }
  return { line, live: session.meta.id };
}

for (const version of HERMES_VERSIONS) {
  test(`${version}: a session exports byte for byte as the real \`hermes sessions export\` wrote it`, async () => {
    let compared = 0;
    const exports = readdirSync(hermesFixture(version, "")).filter((f) => f.endsWith(".export.jsonl"));
    for (const scenario of exports.map((f) => f.slice(0, -".export.jsonl".length))) {
      const expected = readFileSync(hermesFixture(version, `${scenario}.export.jsonl`), "utf8").split("\n")
        .filter(Boolean);
      for (const line of expected) {
        const { id } = JSON.parse(line) as { id: string };
        const ours = await exportLine(hermesFixture(version, `${scenario}.state.db`), id);
        // A compression chain exports as one conversation (lineage form), not as Hermes's per-segment rows.
        if (ours.live !== id || ours.line.includes('"lineage_session_ids": ')) continue;
        assert.equal(ours.line, line, `${scenario} ${id}`);
        compared++;
      }
    }
    assert.ok(compared >= 9, `compared ${compared} sessions`);
  });
}

test("export: a Hermes database session to a file, refused over an existing one unless --force", async () => {
  const [id] = capturedIds("0.19.0", "tool-call");
  const out = join(dir, "tool-call.jsonl");
  const ref = sessionLocator(hermesFixture("0.19.0", "tool-call.state.db"), id!);
  const r = await runCliJson(["export", ref, "-o", out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json.session, { harness: "hermes", id });
  assert.equal(
    `${readFileSync(out, "utf8")}`,
    readFileSync(hermesFixture("0.19.0", "tool-call.export.jsonl"), "utf8"),
  );
  writeFileSync(out, "keep me\n");
  const again = await runCli(["export", ref, "-o", out]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already exists \(use --force/);
  assert.equal(readFileSync(out, "utf8"), "keep me\n");
  assert.equal((await runCli(["export", ref, "-o", out, "--force"])).code, 0);
  assert.notEqual(readFileSync(out, "utf8"), "keep me\n");
});

test("export: an exported compression chain reads back as the same conversation, history kept apart", async () => {
  const [root, tip] = capturedIds("0.19.0", "compressed");
  const db = hermesFixture("0.19.0", "compressed.state.db");
  const out = join(dir, "chain.jsonl");
  assert.equal((await runCli(["export", sessionLocator(db, root!), "-o", out])).code, 0);
  const original = await hermes.store.read(sessionLocator(db, tip!));
  const back = await hermes.store.read(out);
  assert.equal(back.meta.id, tip);
  assert.deepEqual(conversationCore(back.messages), conversationCore(original.messages));
  assert.deepEqual(
    back.threads.map((t) => [t.id, t.messages.length]),
    original.threads.map((t) => [t.id, t.messages.length]),
  );
});

test("export: a Claude Code session is its own transcript, record for record", async () => {
  const home = join(dir, "claude");
  const { id } = seedClaudeHome(home, "thinking-tool-use");
  const out = join(dir, "claude.jsonl");
  const r = await runCli(["export", id, "-o", out, "--claude-home", home]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), readFileSync(claudeFixture("thinking-tool-use"), "utf8"));
});

test("export needs -o", async () => {
  const r = await runCli(["export", "whatever"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /missing -o FILE/);
});

test("export: a Codex session keeps its model_provider and source as recorded, byte for byte", async () => {
  // A Codex home whose own provider differs from the one the thread was recorded under.
  const codexHome = join(dir, "codex-home");
  makeCodexHome(codexHome, { provider: "another-provider" });
  const source = seedCodexThread(codexHome, "0.169.0", "tool-call");
  const out = join(dir, "codex-export.jsonl");
  const r = await runCli(["export", source.id, "-o", out, "--codex-home", codexHome]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), readFileSync(source.path, "utf8"));
  assert.match(readFileSync(out, "utf8").split("\n")[0]!, /"model_provider":"fake"/);
});

test("export: a Codex thread that was handed off keeps its handshake and ordinals byte for byte", async () => {
  const codexHome = join(dir, "codex-handed-off");
  makeCodexHome(codexHome);
  const claudeHome = join(dir, "claude-for-codex");
  const source = seedClaudeHome(claudeHome, "thinking-tool-use");
  const handoff = await runCliJson([
    "handoff",
    source.id,
    "--to",
    "codex",
    "--cwd",
    dir,
    "--codex-home",
    codexHome,
    "--claude-home",
    claudeHome,
  ]);
  assert.equal(handoff.code, 0, handoff.stderr);
  const target = handoff.json.target as { id: string; path: string };
  const out = join(dir, "codex-handed-off.jsonl");
  const r = await runCli(["export", target.id, "-o", out, "--codex-home", codexHome]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), readFileSync(target.path, "utf8"));
  assert.match(readFileSync(out, "utf8"), /session-bridge-handoff/);
});
