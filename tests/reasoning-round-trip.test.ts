/**
 * Reasoning on a hop and back: a foreign target gets the reasoning text (its provider could not check another
 * vendor's proof), and the hop back to the harness whose provider made it restores the native block, proof
 * and all. A signature no one can prove came from the provider it names is never replayed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, renameSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import { BUILTIN_HARNESSES, builtinRegistry } from "../lib/harnesses/registry.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import type { Session } from "../lib/ir/schema.ts";
import { wholeLines } from "../lib/io/rendered.ts";
import { claudeFixture, jsonLines } from "./helpers/fixtures.ts";
import { codexFixture, makeCodexHome } from "./helpers/codex.ts";
import { capturedIds, hermesFixture } from "./helpers/hermes.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const codexHome = join(root, "codex");
makeCodexHome(codexHome);
const CLAUDE_SIGNATURE = "ZmFrZS1zaWduYXR1cmU6ZTZlM2MxY2FhYTdiNWRhZDAxOTQ1MDZmMmJkYzRmYjg=";

interface Report {
  lossless: boolean;
  entries: { code: string; severity: string; count: number }[];
}

/** Converts and returns where it went, the target id and the report; Claude files are named by their id. */
async function convert(source: string, from: string, to: string, name: string) {
  const out = join(root, name);
  const r = await runCliJson([
    "convert",
    source,
    "--from",
    from,
    "--to",
    to,
    "-o",
    out,
    "--codex-home",
    codexHome,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  let path = out;
  if (to === "claude-code") renameSync(out, path = join(root, `${id}.jsonl`));
  return { path, id, report: r.json.report as Report };
}

function thinkingBlocks(path: string): Record<string, unknown>[] {
  return jsonLines(path).flatMap((r) => {
    const content = (r.message as { content?: unknown } | undefined)?.content;
    return Array.isArray(content) ? content.filter((b) => b.type === "thinking") : [];
  });
}

test("Claude thinking travels to Codex as text and comes back as the thinking block with its signature", async () => {
  const there = await convert(
    claudeFixture("thinking-tool-use"),
    "claude-code",
    "codex",
    "thinking.codex.jsonl",
  );
  const rollout = readFileSync(there.path, "utf8");
  assert.doesNotMatch(rollout, new RegExp(CLAUDE_SIGNATURE));
  assert.match(rollout, /\[reasoning\] /);
  assert.ok(
    there.report.entries.some((e) => e.code === "reasoning-proofs-dropped" && e.severity === "warning"),
  );
  const back = await convert(there.path, "codex", "claude-code", "thinking.back.jsonl");
  const original = thinkingBlocks(claudeFixture("thinking-tool-use"));
  assert.ok(original.length > 0);
  assert.deepEqual(thinkingBlocks(back.path), original);
  assert.doesNotMatch(readFileSync(back.path, "utf8"), /\[reasoning\] /);
  assert.ok(
    back.report.entries.some((e) => e.code === "reasoning-proofs-restored" && e.count === original.length),
  );
});

test("Codex reasoning travels to Claude Code as text and comes back as a reasoning item with its encrypted payload", async () => {
  const reasoningItems = (path: string) =>
    jsonLines(path).flatMap((l) => {
      const p = l.payload as { type?: string; encrypted_content?: string } | undefined;
      return l.type === "response_item" && p?.type === "reasoning" ? [p.encrypted_content] : [];
    });
  const source = codexFixture("0.169.0", "tool-call");
  const there = await convert(source, "codex", "claude-code", "codex-reasoning.claude.jsonl");
  assert.doesNotMatch(readFileSync(there.path, "utf8"), /gAAAAAB/);
  const back = await convert(there.path, "claude-code", "codex", "codex-reasoning.back.jsonl");
  assert.deepEqual(reasoningItems(back.path), reasoningItems(source));
  assert.equal(reasoningItems(source).length, 1);
});

test("a Hermes reasoning signature recorded through OpenRouter is never replayed to Claude Code, and the report says so", async () => {
  const id = capturedIds("0.19.0", "text-turns")[0]!;
  const read = await readHermesSession(`${hermesFixture("0.19.0", "text-turns.state.db")}#${id}`);
  const session: Session = { ...read, meta: { ...read.meta, provider: "openrouter" } };
  const reply = session.messages.find((m) => m.role === "assistant")!;
  reply.blocks.unshift({
    type: "reasoning",
    text: "Thinking it over.",
    signature: "c2lnbmVk",
    provider: "anthropic",
  });
  const prepared = await prepareConversion(session, BUILTIN_HARNESSES["claude-code"], {
    registry: builtinRegistry,
    cwd: root,
    handshake: false,
    now: new Date(),
  });
  const lines: string[] = [];
  const rendered = BUILTIN_HARNESSES["claude-code"].store.render(prepared.session, prepared.options);
  for await (const l of wholeLines(rendered)) {
    lines.push(l);
  }
  const text = lines.join("\n");
  assert.doesNotMatch(text, /c2lnbmVk/);
  assert.doesNotMatch(text, /"thinking"/);
  assert.match(text, /\[reasoning\] Thinking it over\./);
  const entry = prepared.report.entries.find((e) => e.code === "reasoning-proofs-unproven");
  assert.equal(entry?.count, 1);
  assert.equal(entry?.severity, "warning");
});

test("Claude thinking through Hermes comes back as the thinking block with its signature", async () => {
  const there = await convert(
    claudeFixture("thinking-tool-use"),
    "claude-code",
    "hermes",
    "thinking.hermes.jsonl",
  );
  assert.doesNotMatch(readFileSync(there.path, "utf8"), new RegExp(CLAUDE_SIGNATURE));
  const back = await convert(there.path, "hermes", "claude-code", "thinking.hermes-back.jsonl");
  assert.deepEqual(thinkingBlocks(back.path), thinkingBlocks(claudeFixture("thinking-tool-use")));
});

test("Hermes reasoning shown to Codex as text comes back to Hermes as reasoning, and the first hop says so", async () => {
  const db = join(root, "reasoning.state.db");
  copyFileSync(hermesFixture("0.19.0", "text-turns.state.db"), db);
  const id = capturedIds("0.19.0", "text-turns")[0]!;
  const sqlite = new DatabaseSync(db);
  sqlite.prepare("UPDATE messages SET reasoning = ?, reasoning_content = ? WHERE role = 'assistant'").run(
    "Weighing the options.",
    "Weighing the options.",
  );
  sqlite.close();
  const there = await convert(`${db}#${id}`, "hermes", "codex", "hermes-reasoning.codex.jsonl");
  const shown = there.report.entries.find((e) => e.code === "reasoning-shown-as-text");
  assert.equal(shown?.severity, "warning");
  assert.ok(readFileSync(there.path, "utf8").includes("[reasoning] Weighing the options."));
  const back = await convert(there.path, "codex", "hermes", "hermes-reasoning.back.jsonl");
  const session = await BUILTIN_HARNESSES["hermes"].store.read(back.path);
  const reasoning = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === "reasoning");
  assert.equal(reasoning.length, shown?.count);
  for (const b of reasoning) assert.ok(b.type === "reasoning" && b.text === "Weighing the options.");
  assert.doesNotMatch(readFileSync(back.path, "utf8"), /\[reasoning\]/);
});
