import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { renderClaude } from "../lib/harnesses/claude-code/render.ts";
import { publishFile } from "../lib/io/publish.ts";
import { DriftCollector } from "../lib/schemas/drift.ts";
import { VALIDATORS } from "../lib/generated/validators/claude-code.ts";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { claudeFixture, jsonLines } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();
const FIXTURES = [
  "plain-text",
  "thinking-tool-use",
  "resumed",
  "rewound-branch",
  "subagent",
  "interrupted-tool-call",
  "interrupted-queued",
  "edit-tool",
];

/** The same IR as if another harness had produced it: forces the generic renderer instead of the record copy. */
function asForeign(session: Session): Session {
  const { path: _path, ...meta } = session.meta;
  return { ...session, meta: { ...meta, harness: "hermes" } };
}

/** Role and blocks per API turn: consecutive same-role messages merged, harness context left out. */
function core(messages: Message[]): { role: string; blocks: Block[] }[] {
  const turns: { role: string; blocks: Block[] }[] = [];
  for (const m of messages.filter((m) => m.kind !== "context")) {
    const role = m.role === "assistant" ? "assistant" : "user";
    const last = turns.at(-1);
    if (last?.role === role) last.blocks.push(...m.blocks);
    else turns.push({ role, blocks: [...m.blocks] });
  }
  return turns;
}

async function render(
  session: Session,
  name: string,
  extra: { handshake?: string; stubOpenCalls?: boolean } = {},
) {
  const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.jsonl`);
  const options = {
    id: "5f0c1f6e-3b52-4e8c-9d43-0c2d7a1f9a10",
    cwd: "/home/user/elsewhere",
    now: new Date(),
    stubOpenCalls: false,
    ...extra,
  };
  await publishFile(path, renderClaude(session, options), false);
  return path;
}

for (const name of FIXTURES) {
  test(`rendering ${name} from a foreign IR gives records the 2.1.328 schemas accept, with the conversation intact`, async () => {
    const source = await readClaudeSession(claudeFixture(name));
    const path = await render(asForeign(source), name, {
      handshake: "<session-bridge-handoff>\nhi\n</session-bridge-handoff>",
      stubOpenCalls: true,
    });
    const drift = new DriftCollector("claude-code", VALIDATORS);
    jsonLines(path).forEach((r, i) => drift.check(r.version as string, r.type as string, r, i + 1));
    assert.deepEqual(drift.entries(), []);
    const back = await readClaudeSession(path);
    const expected = core(source.messages);
    assert.deepEqual(core(back.messages).slice(0, expected.length), expected);
    assert.deepEqual(back.pending.openToolCalls, [], "stubs closed every open call");
  });
}

test("records copied from a Claude source keep validating after retargeting", async () => {
  const source = await readClaudeSession(claudeFixture("thinking-tool-use"));
  const path = await render(source, "copy", {
    handshake: "<session-bridge-handoff>\nx\n</session-bridge-handoff>",
  });
  const drift = new DriftCollector("claude-code", VALIDATORS);
  jsonLines(path).forEach((r, i) => drift.check(r.version as string, r.type as string, r, i + 1));
  assert.deepEqual(drift.entries(), []);
});

test("foreign reasoning without an Anthropic signature is carried as text, never as a thinking block", async () => {
  const source = await readClaudeSession(claudeFixture("thinking-tool-use"));
  const foreign = asForeign(source);
  foreign.messages = foreign.messages.map((m) => ({
    ...m,
    blocks: m.blocks.map((
      b,
    ) => (b.type === "reasoning"
      ? { type: "reasoning", text: b.text, provider: "openai", encrypted: "gAAAA" }
      : b)
    ),
  }));
  const path = await render(foreign, "reasoning");
  const text = JSON.stringify(jsonLines(path));
  assert.doesNotMatch(text, /"type":"thinking"|"type":"redacted_thinking"/);
  assert.match(text, /\[reasoning\] The user wants a shell command run/);
});
