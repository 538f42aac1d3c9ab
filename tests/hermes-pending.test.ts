/**
 * Pending state read from Hermes: a call Hermes itself interrupted is answered in its rows (history), while a
 * call with no answer at all that the conversation went past (a handed-off open call Hermes resumed) stays
 * pending, so the next hop still carries it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import { sessionLocator } from "../lib/harnesses/hermes/profiles.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { capturedIds, HERMES_VERSIONS, hermesFixture, seedHermesHome } from "./helpers/hermes.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();

test("an open call handed to Hermes and resumed past there is still pending on the next hop", async () => {
  const claudeHome = join(root, "claude");
  const source = seedClaudeHome(claudeHome, "interrupted-tool-call");
  const hermesHome = join(root, "hermes");
  const db = seedHermesHome(hermesHome, "0.19.0", "text-turns");
  const target = join(root, "project");
  mkdirSync(target);
  const r = await runCliJson([
    "handoff",
    source.id,
    "--to",
    "hermes",
    "--no-stub-open-calls",
    "--cwd",
    realpathSync(target),
    "--claude-home",
    claudeHome,
    "--hermes-home",
    hermesHome,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json as { target: { id: string } }).target.id;
  // What Hermes 0.19.0 stored when it resumed this session (observed live with `hermes chat -Q --resume`): the
  // new prompt and its answer; the stand-in result it sent the model for the open call is not stored.
  const resumed = new DatabaseSync(db);
  const insert = resumed.prepare(
    "INSERT INTO messages (session_id, role, content, timestamp, finish_reason) VALUES (?, ?, ?, ?, ?)",
  );
  insert.run(id, "user", "What happened?", 1796094000.1, null);
  insert.run(
    id,
    "assistant",
    "ASSISTANT-REPLY: acknowledged, turn 2, digest a0717146.",
    1796094001.2,
    "stop",
  );
  resumed.close();

  const session = await readHermesSession(sessionLocator(db, id));
  assert.deepEqual(
    session.pending.openToolCalls.map(({ callId, name }) => ({ callId, name })),
    [{ callId: "toolu_fake_b203b0d1e13e6a06134f", name: "terminal" }],
  );
  assert.equal(session.pending.interruptedTurn, true);
});

for (const version of HERMES_VERSIONS) {
  test(`${version}: a call Hermes cancelled itself in its TUI is history, not pending: its result and the typed words follow it`, async () => {
    const [id] = capturedIds(version, "interrupted");
    const session = await readHermesSession(
      sessionLocator(hermesFixture(version, "interrupted.state.db"), id!),
    );
    assert.deepEqual(session.pending, { openToolCalls: [], queuedInput: [], interruptedTurn: false });
    const texts = session.messages.slice(6).map((m) =>
      `${m.role}: ${
        m.blocks.map((b) =>
          b.type === "text"
            ? b.text
            : b.type === "tool_call"
            ? `call ${JSON.stringify(b.input)}`
            : b.type === "tool_result"
            ? `result ${b.content.map((p) => (p.type === "text" ? p.text : "")).join("")}`
            : ""
        ).join("")
      }`
    );
    assert.deepEqual(texts, [
      "user: TOOL: sleep 600; echo never-printed",
      'assistant: call {"command":"sleep 600; echo never-printed"}',
      'tool: result {"output": "[Command interrupted]", "exit_code": 130, "error": null}',
      // 0.14 writes no closing row; 0.19 closes the turn with one.
      ...(version === "0.14.0" ? [] : ["assistant: Operation interrupted."]),
      "user: Typed while it ran: keep the coastal notes short.",
      "assistant: ASSISTANT-REPLY: acknowledged, turn 4, digest 743c0960.",
    ]);
    assert.equal(
      session.messages.at(-2)!.kind,
      "turn",
      "the words typed while it ran are the person's own turn",
    );
  });
}

for (const version of HERMES_VERSIONS) {
  test(`${version}: an open call the real Hermes resumed past (open-call-resumed) is still pending; its stand-in was only sent`, async () => {
    const [id] = capturedIds(version, "open-call-resumed");
    const session = await readHermesSession(
      sessionLocator(hermesFixture(version, "open-call-resumed.state.db"), id!),
    );
    assert.deepEqual(
      session.pending.openToolCalls.map(({ callId, name }) => ({ callId, name })),
      [{ callId: "call_open0001", name: "terminal" }],
    );
    // What Hermes 0.19.0 sent the model for that call on resume: a placeholder pointing at a summary that does
    // not exist. It is not stored: no tool row follows the call.
    const [request] = readFileSync(hermesFixture(version, "open-call-resumed.requests.jsonl"), "utf8").trim()
      .split("\n").map((l) =>
        JSON.parse(l) as { messages: { role: string; content: string; tool_call_id?: string }[] }
      );
    assert.deepEqual(request!.messages.filter((m) => m.role === "tool"), [{
      role: "tool",
      name: "terminal",
      content: "[Result unavailable — see context summary above]",
      tool_call_id: "call_open0001",
    }]);
    // 0.19 stores the resumed prompt as its own row; 0.14 merges it into the stored user row before it in what
    // it sends, and then stores neither the prompt nor the merge (the prompt reaches the model, not the store).
    assert.deepEqual(
      session.messages.map((m) => m.role),
      version === "0.14.0"
        ? ["user", "assistant", "user", "assistant"]
        : ["user", "assistant", "user", "user", "assistant"],
    );
  });
}
