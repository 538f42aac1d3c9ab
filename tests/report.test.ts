import { test } from "node:test";
import assert from "node:assert/strict";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { buildReport } from "../lib/report/report.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import { harness } from "../lib/harnesses/index.ts";
import type { Capabilities } from "../lib/report/capabilities.ts";
import { claudeFixture } from "./helpers/fixtures.ts";

const actions = {
  handshake: true,
  stubbedCalls: true,
  tools: { translated: 0, restored: 0, passedThrough: [] },
  neutralized: 0,
};

test("what one target discloses depends only on its own capability set", async () => {
  const session = await readClaudeSession(claudeFixture("subagent"));
  const codex = harness("codex").capabilities;
  const before = buildReport(session, codex, actions);
  const claude = harness("claude-code").capabilities as Capabilities;
  const saved = { ...claude };
  try {
    // Give another writer every capability: Codex's disclosure must not move.
    Object.assign(claude, {
      threadTopology: true,
      toolSchemas: true,
      systemInstructions: true,
      subagents: true,
      images: true,
    });
    assert.deepEqual(buildReport(session, codex, actions), before);
  } finally {
    Object.assign(claude, saved);
  }
});

test("a capability a target lacks is disclosed as a loss, and lossless is claimed only without losses", async () => {
  const session = await readClaudeSession(claudeFixture("subagent"));
  const codex = harness("codex").capabilities;
  const report = buildReport(session, codex, actions);
  assert.equal(report.lossless, false);
  assert.ok(report.entries.some((e) => e.code === "subagents" && e.severity === "loss"));
  const richer = buildReport(session, {
    ...codex,
    subagents: true,
    systemInstructions: true,
    toolSchemas: true,
  }, actions);
  assert.ok(!richer.entries.some((e) => e.code === "subagents"));
});

test("a same-harness copy is lossless, and says what it synthesized", async () => {
  const session = await readClaudeSession(claudeFixture("plain-text"));
  const report = buildReport(session, harness("claude-code").capabilities, actions);
  assert.equal(report.lossless, true);
  assert.ok(report.entries.some((e) => e.code === "handshake-added" && e.severity === "info"));
});

test("a foreign target discloses the source's bookkeeping records it does not carry, by type", async () => {
  const session = await readClaudeSession(claudeFixture("thinking-tool-use"));
  const entry = buildReport(session, harness("codex").capabilities, actions).entries.find((e) =>
    e.code === "harness-records"
  );
  assert.ok(entry && entry.count === session.passthrough.length && entry.count > 0);
  assert.ok(entry.examples.includes("attachment"));
});

test("drift is a note for the operator, never a loss shown to the model in the handshake", async () => {
  const session = await readClaudeSession(claudeFixture("plain-text"));
  session.drift = [
    {
      harness: "claude-code",
      version: "2.1.328",
      where: "record:assistant",
      problem: "unknown key",
      count: 3,
      examples: [1],
    },
    {
      harness: "claude-code",
      version: "2.1.328",
      where: "record:user",
      problem: "unknown key",
      count: 1,
      examples: [2],
    },
    {
      harness: "claude-code",
      version: "2.1.328",
      where: "record:x",
      problem: "unknown type",
      count: 1,
      examples: [3],
    },
  ];
  const prepared = prepareConversion(session, harness("codex"), { handshake: true, now: new Date() });
  const drift = prepared.report.entries.find((e) => e.code === "drift");
  assert.equal(drift?.severity, "info");
  assert.equal(drift?.count, 3);
  assert.doesNotMatch(prepared.options.handshake!, /drift/);
  assert.match(
    prepared.options.handshake!,
    /\nNot transferred or changed: system-instructions \(1\), tool-schemas \(12\)\.\n/,
  );
});
