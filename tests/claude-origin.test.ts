import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { ORIGIN_KINDS, originMeaning } from "../lib/harnesses/claude-code/origin.ts";
import { claudeFixture, FIXTURE_CWD, seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, threadRow } from "./helpers/codex.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();

const textOf = (m: { blocks: { type: string; text?: string }[] }) =>
  m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");

/** The interactive captures of each certified 2.x version. */
const TUI_VERSIONS = ["2.1.328", "2.1.332"];
const tuiFixture = (version: string, name: string) =>
  join(dirname(claudeFixture(name)), "..", version, `${name}.jsonl`);

for (const version of TUI_VERSIONS) {
  test(`a prompt typed in the interactive TUI of Claude Code ${version} is the user's words, not context`, async () => {
    const session = await readClaudeSession(tuiFixture(version, "interactive"));
    const prompts = session.messages.filter((m) => m.role === "user" && m.kind === "turn").map(textOf)
      .filter((t) => t !== "");
    assert.deepEqual(prompts, [
      "Interactive fixture: a prompt typed into the TUI.",
      "Interactive fixture: run this. TOOL: echo fixture-tui-tool-output",
    ]);
    assert.equal(session.meta.title !== undefined && session.meta.title !== "", true);
  });

  test(`a prompt typed while a tool ran in Claude Code ${version} is in the live thread after the cancelled call, once`, async () => {
    const session = await readClaudeSession(tuiFixture(version, "interactive-interrupted"));
    const parts = session.messages.filter((m) => m.kind === "turn").map((m) =>
      `${m.role}: ${
        m.blocks.map((b) =>
          b.type === "text"
            ? b.text
            : b.type === "tool_call"
            ? `[call ${JSON.stringify(b.input)}]`
            : b.type === "tool_result"
            ? "[result]"
            : `[${b.type}]`
        ).join(" ")
      }`
    );
    const slow = parts.findIndex((p) => p.includes('"command":"echo fixture-slow-start && sleep 600"'));
    const queued = parts.indexOf("user: Typed while the slow command ran: then list the files.");
    assert.notEqual(slow, -1, parts.join("\n"));
    assert.equal(parts.filter((p) => p.includes("Typed while the slow command ran")).length, 1);
    assert.ok(queued > slow, parts.join("\n"));
    // The cancelled call's own result comes first (the API needs it right after the call), then the words.
    assert.equal(parts[slow + 1], "user: [result]");
    assert.equal(
      session.threads.some((t) => t.messages.some((m) => textOf(m).includes("Typed while the slow command"))),
      false,
    );
  });
}

test("every origin kind Claude Code 2.1.328 writes has a meaning: only harness-made kinds are context", () => {
  assert.deepEqual(
    Object.entries(ORIGIN_KINDS).filter(([, meaning]) => meaning === "person").map(([kind]) => kind).sort(),
    ["human", "unclassified", "voice-call"],
  );
  assert.deepEqual(
    Object.entries(ORIGIN_KINDS).filter(([, meaning]) => meaning === "harness").map(([kind]) => kind).sort(),
    [
      "auto-continuation",
      "channel",
      "coordinator",
      "observer",
      "observer-activity",
      "peer",
      "plugin",
      "slack-ping",
      "task-notification",
    ],
  );
  assert.equal(originMeaning({ kind: "plugin", name: "p", asUser: true }), "person");
  assert.equal(originMeaning({ kind: "a-kind-from-next-month" }), "person");
  assert.equal(originMeaning(undefined), undefined);
});

test("records with a harness-made origin are context and a person's origin is a turn, even when meta", async () => {
  const path = join(dir, "origins.jsonl");
  const kinds: [string, Record<string, unknown>][] = [
    ["typed", { origin: { kind: "human" }, promptSource: "typed" }],
    ["spoken", { origin: { kind: "voice-call" }, isMeta: true }],
    ["notified", { origin: { kind: "task-notification" } }],
    ["continued", { origin: { kind: "auto-continuation" }, isMeta: true }],
    ["from a peer", { origin: { kind: "peer" } }],
    ["from a channel", { origin: { kind: "channel", server: "s" }, isMeta: true }],
    ["unattributed", { origin: { kind: "unclassified" } }],
  ];
  let parent: string | null = null;
  const lines = kinds.flatMap(([text, extra], i) => {
    const user = `00000000-0000-4000-8000-00000000000${i}`;
    const answer = `00000000-0000-4000-8000-00000000010${i}`;
    const records = [
      {
        type: "user",
        uuid: user,
        parentUuid: parent,
        timestamp: `2026-11-29T10:00:0${i}.000Z`,
        sessionId: "s",
        cwd: FIXTURE_CWD,
        message: { role: "user", content: text },
        ...extra,
      },
      {
        type: "assistant",
        uuid: answer,
        parentUuid: user,
        timestamp: `2026-11-29T10:00:0${i}.500Z`,
        sessionId: "s",
        message: { role: "assistant", content: [{ type: "text", text: `answer ${i}` }] },
      },
    ];
    parent = answer;
    return records.map((r) => JSON.stringify(r));
  });
  writeFileSync(path, lines.join("\n") + "\n");
  const session = await readClaudeSession(path);
  const kindOf = Object.fromEntries(
    session.messages.filter((m) => m.role === "user").map((m) => [textOf(m), m.kind]),
  );
  assert.deepEqual(kindOf, {
    typed: "turn",
    spoken: "turn",
    notified: "context",
    continued: "context",
    "from a peer": "context",
    "from a channel": "context",
    unattributed: "turn",
  });
});

test("show labels a typed prompt as the user's, inspect titles the session with it", async () => {
  const home = join(dir, "claude-show");
  const seeded = seedClaudeHome(home, "interactive");
  const shown = await runCli(["show", seeded.id, "--claude-home", home]);
  assert.equal(shown.code, 0, shown.stderr);
  const lines = shown.stdout.split("\n");
  const at = lines.indexOf("Interactive fixture: a prompt typed into the TUI.");
  assert.match(lines[at - 1]!, /^── user · /);
  const inspected = await runCliJson(["inspect", seeded.id, "--claude-home", home]);
  assert.equal(inspected.code, 0, inspected.stderr);
  assert.match(JSON.stringify(inspected.json), /"title":"Interactive fixture: a prompt typed into the TUI\./);
});

test("a handoff of a TUI session to Codex keeps every typed prompt and names the row by the first", async () => {
  const claudeHome = join(dir, "claude-codex");
  const seeded = seedClaudeHome(claudeHome, "interactive-interrupted");
  const codexHome = join(dir, "codex");
  makeCodexHome(codexHome);
  mkdirSync(join(dir, "codex-project"));
  const cwd = realpathSync(join(dir, "codex-project"));
  const r = await runCliJson([
    "handoff",
    seeded.id,
    "--to",
    "codex",
    "--cwd",
    cwd,
    "--codex-home",
    codexHome,
    "--claude-home",
    claudeHome,
  ], { SESSION_BRIDGE_HOME: join(dir, "bridge") });
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as { id: string; path: string };
  const row = threadRow(codexHome, target.id)!;
  assert.equal(row.first_user_message, "Interrupted fixture: a prompt typed into the TUI.");
  const userWords = readFileSync(target.path, "utf8").split("\n").filter(Boolean).flatMap((l) => {
    const r = JSON.parse(l) as { type: string; payload: { type?: string; role?: string; content?: unknown } };
    if (r.type !== "response_item" || r.payload.type !== "message" || r.payload.role !== "user") return [];
    return (r.payload.content as { text?: string }[]).map((c) => c.text ?? "");
  });
  for (
    const typed of [
      "Interrupted fixture: a prompt typed into the TUI.",
      "Interrupted fixture: run this. TOOL: echo fixture-tui-tool-output",
      "Interrupted fixture: the slow one. TOOL: echo fixture-slow-start && sleep 600",
      "Typed while the slow command ran: then list the files.",
    ]
  ) {
    assert.equal(
      userWords.filter((w) => w === typed).length,
      1,
      `${typed} once in ${JSON.stringify(userWords)}`,
    );
  }
  // Only the harness's own interruption marker is context now.
  const entries = (r.json.report as { entries: { code: string; count: number }[] }).entries;
  assert.equal(entries.find((e) => e.code === "harness-context")?.count, 1);
});
