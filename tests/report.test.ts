import type { Message } from "../lib/ir/schema.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { buildReport, ThreadTally } from "../lib/pipeline/report.ts";
import { formatReport, reportSections, reportVerdict } from "../lib/report/report.ts";
import { planLines } from "../lib/tui/plan.tsx";
import type { HandoffOutcome } from "../lib/mod.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import { BUILTIN_HARNESSES, builtinRegistry, type Registry } from "../lib/harnesses/registry.ts";
import { claudeFixture } from "./helpers/fixtures.ts";

const actions = {
  handshake: true,
  stubbedCalls: true,
  tools: { translated: 0, restored: 0, passedThrough: [] },
  neutralized: 0,
};

/** Entries every report below shares, written out once. */
const HANDSHAKE_ADDED = {
  code: "handshake-added",
  severity: "info",
  count: 1,
  detail: "a resume handshake message was appended",
  examples: [],
};
const HARNESS_CONTEXT = {
  code: "harness-context",
  severity: "info",
  count: 1,
  detail: "text the source harness injected is not replayed as user words",
  examples: ["#4"],
};
/** The captured subagent session has 28 records that are neither user nor assistant turns. */
const SUBAGENT_RECORDS = {
  code: "harness-records",
  severity: "info",
  count: 28,
  detail: "the source harness's own bookkeeping records (not conversation) are not carried",
  examples: ["queue-operation", "attachment", "atis-latch"],
};
const BYPASS_POSTURE = {
  code: "permission-posture",
  severity: "loss",
  count: 1,
  detail: 'permission posture "bypassPermissions" has no equivalent in codex',
  examples: [],
};

/** Claude Code's captured subagent session handed to Codex: what Codex's capability set cannot hold. */
const SUBAGENT_TO_CODEX = {
  source: { harness: "claude-code", id: "597e1fc6-d0c1-40b8-bb55-aafeed26a320" },
  target: { harness: "codex" },
  lossless: false,
  entries: [
    // What the agent may do unasked comes first.
    BYPASS_POSTURE,
    {
      code: "subagents",
      severity: "loss",
      count: 1,
      detail: "sidechains and subagent transcripts are not carried",
      examples: ["agent-a36eb314a6d531438"],
    },
    HARNESS_CONTEXT,
    SUBAGENT_RECORDS,
    {
      code: "system-instructions",
      severity: "supplied",
      count: 1,
      detail: "system instructions are not carried: codex sends its own",
      examples: [],
    },
    {
      code: "tool-schemas",
      severity: "supplied",
      count: 12,
      detail: "tool schemas are not carried: codex offers the tools of its own configuration",
      examples: [],
    },
    HANDSHAKE_ADDED,
  ],
};

/** What the report counts of a held thread. */
function tallyOf(messages: Message[]): ThreadTally {
  const tally = new ThreadTally();
  messages.forEach((m, i) => tally.add(m, i));
  return tally;
}

test("what one target discloses depends only on its own capability set", async () => {
  const session = await readClaudeSession(claudeFixture("subagent"));
  const codex = BUILTIN_HARNESSES["codex"];
  assert.deepEqual(
    buildReport(session, codex.conversation.capabilities, actions, tallyOf(session.messages)),
    SUBAGENT_TO_CODEX,
  );
  const now = new Date();
  const reportWith = async (registry: Registry) =>
    (await prepareConversion(session, codex, { registry, handshake: true, now })).report;
  // Every other harness, the source among them, given every capability (in a registry of its own: the
  // built-in descriptors stay as they are): what Codex discloses must not move.
  const richer: Registry = {
    harnesses: builtinRegistry.harnesses.map((h) =>
      h === codex ? h : {
        ...h,
        conversation: {
          ...h.conversation,
          capabilities: {
            ...h.conversation.capabilities,
            threadTopology: true,
            toolSchemas: true,
            systemInstructions: true,
            subagents: true,
            images: true,
            permissionPosture: true,
            perTurnModel: true,
          },
        },
      }
    ),
  };
  const disclosed = await reportWith(builtinRegistry);
  assert.ok(disclosed.entries.some((e) => e.code === "subagents" && e.severity === "loss"));
  assert.deepEqual(await reportWith(richer), disclosed);
});

test("a capability a target lacks is disclosed as a loss, and lossless is claimed only without losses", async () => {
  const session = await readClaudeSession(claudeFixture("subagent"));
  const codex = BUILTIN_HARNESSES["codex"].conversation.capabilities;
  assert.deepEqual(buildReport(session, codex, actions, tallyOf(session.messages)), SUBAGENT_TO_CODEX);
  const richer = buildReport(
    session,
    {
      ...codex,
      subagents: true,
      systemInstructions: true,
      toolSchemas: true,
    },
    actions,
    tallyOf(session.messages),
  );
  // Still not lossless: the posture has no Codex equivalent.
  assert.deepEqual(richer, {
    ...SUBAGENT_TO_CODEX,
    entries: [BYPASS_POSTURE, HARNESS_CONTEXT, SUBAGENT_RECORDS, HANDSHAKE_ADDED],
  });
});

test("a same-harness copy is lossless, and says what it synthesized", async () => {
  const session = await readClaudeSession(claudeFixture("plain-text"));
  assert.deepEqual(
    buildReport(
      session,
      BUILTIN_HARNESSES["claude-code"].conversation.capabilities,
      actions,
      tallyOf(session.messages),
    ),
    {
      source: { harness: "claude-code", id: "cfcdd08f-8724-4f00-81dd-67b485c7dc83" },
      target: { harness: "claude-code" },
      lossless: true,
      entries: [
        {
          code: "records-copied-verbatim",
          severity: "info",
          count: 1,
          detail: "same harness: every source record is copied, ids and paths adjusted",
          examples: [],
        },
        HANDSHAKE_ADDED,
      ],
    },
  );
});

/** The report of a captured Claude Code session converted to Codex. */
async function codexReportOf(fixture: string) {
  const session = await readClaudeSession(claudeFixture(fixture));
  return buildReport(
    session,
    BUILTIN_HARNESSES["codex"].conversation.capabilities,
    actions,
    tallyOf(session.messages),
  );
}

test("a foreign target discloses the source's bookkeeping records it does not carry, by type", async () => {
  // The captured session has 24 records that are neither user nor assistant turns.
  const entry = (await codexReportOf("thinking-tool-use")).entries.find((e) => e.code === "harness-records");
  assert.deepEqual(entry, { ...SUBAGENT_RECORDS, count: 24 });
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
  const prepared = await prepareConversion(session, BUILTIN_HARNESSES["codex"], {
    registry: builtinRegistry,
    handshake: true,
    now: new Date(),
  });
  const drift = prepared.report.entries.find((e) => e.code === "drift");
  assert.equal(drift?.severity, "info");
  assert.equal(drift?.count, 3);
  assert.doesNotMatch(prepared.options.handshake!, /drift/);
  assert.match(
    prepared.options.handshake!,
    /\nNot transferred or changed: system-instructions \(1\), tool-schemas \(12\)\.\n/,
  );
});

test("system instructions and tool schemas the target sends itself are reported apart and are no loss", async () => {
  const session = await readClaudeSession(claudeFixture("plain-text"));
  const { report } = await prepareConversion(session, BUILTIN_HARNESSES["codex"], {
    registry: builtinRegistry,
    handshake: true,
    now: new Date(),
  });
  assert.deepEqual(
    report.entries.filter((e) => e.severity === "supplied").map((e) => e.code),
    ["system-instructions", "tool-schemas"],
  );
  assert.equal(report.entries.some((e) => e.severity === "loss"), false);
  assert.equal(report.lossless, true);
  assert.equal(reportVerdict(report), "lossless");
});

test("the report reads by severity: posture and lost conversation first, then changes, the target's own context, then notes", async () => {
  const report = await codexReportOf("subagent");
  // Posture last among the entries as built: it still heads the report.
  const shuffled = { ...report, entries: [...report.entries.slice(1), report.entries[0]!] };
  const lines = formatReport(shuffled);
  assert.deepEqual(lines, [
    "report claude-code -> codex: lossy: 2 lost",
    "  What does not carry over (2):",
    `    loss      permission-posture x1: ${BYPASS_POSTURE.detail}`,
    "    loss      subagents x1: sidechains and subagent transcripts are not carried",
    "  What the target supplies itself (not lost) (2):",
    "    supplied  system-instructions x1: system instructions are not carried: codex sends its own",
    "    supplied  tool-schemas x12: tool schemas are not carried: codex offers the tools of its own configuration",
    "  What was done (3):",
    `    info      harness-context x1: ${HARNESS_CONTEXT.detail}`,
    `    info      harness-records x28: ${SUBAGENT_RECORDS.detail}`,
    `    info      handshake-added x1: ${HANDSHAKE_ADDED.detail}`,
  ]);
});

test("the TUI's plan heads each part of the report with the number of lines under it, as the CLI does", async () => {
  const report = await codexReportOf("subagent");
  const outcome = {
    kind: "convert",
    source: { harness: "claude-code", id: "s" },
    target: { harness: "codex", id: "t", resumeCommand: "codex resume t" },
    report,
    files: [],
    databases: [],
    backup: { paths: [], databases: [], planned: false },
  } as unknown as HandoffOutcome;
  // Its words as written (the report's lines are words; a token, an id or a path, is under its heading).
  const lines = planLines(outcome, undefined).map((l) => ("token" in l ? `  ${l.token}` : l.words));
  for (const section of reportSections(report)) {
    const at = lines.indexOf(`${section.heading} (${section.entries.length}):`);
    assert.ok(at > 0, `no heading for ${section.severity}:\n${lines.join("\n")}`);
    const under = lines.slice(at + 1).findIndex((l) => !l.startsWith("  "));
    assert.equal(under, section.entries.length, `${section.heading}:\n${lines.join("\n")}`);
  }
  assert.ok(lines.includes("What does not carry over (2):"));
});
