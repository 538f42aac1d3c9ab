/**
 * A session handed off, (maybe) resumed, and handed off again: the second hop replaces the first handshake,
 * but what it said is still pending (the interrupted call) is said again by the new one, once; a queued
 * message never sent is the user's own words in the thread from the first hop on, so it keeps its place. And an unanswered call followed by Codex's `turn_aborted` is pending wherever it is in the thread.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_HARNESSES } from "../lib/harnesses/registry.ts";
import { HANDSHAKE_OPEN, isHandshake, QUEUED_HEADING } from "../lib/handshake/handshake.ts";
import { carryPending, newCarrySurvey, noteCarryFacts } from "../lib/handshake/carry.ts";
import { emptySession } from "../lib/ir/session.ts";
import { findPending } from "../lib/ir/pending.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { codexFixture, makeCodexHome } from "./helpers/codex.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const codexHome = join(root, "codex");
makeCodexHome(codexHome);
const hermesHome = join(root, "hermes");
mkdirSync(hermesHome);
const CALL_ID = "toolu_fake_b203b0d1e13e6a06134f";
const QUEUED = "Queued while the tool ran: afterwards, also list the files.";

async function convert(
  source: string,
  from: string,
  to: string,
  out: string,
  extra: string[] = [],
): Promise<string> {
  const r = await runCli([
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
    "--hermes-home",
    hermesHome,
    ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return out;
}

function handshakeOf(session: Session): string {
  const found = session.messages.filter(isHandshake);
  assert.equal(found.length, 1, "exactly one handshake");
  return found[0]!.blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function occurrences(session: Session, needle: string): number {
  const texts = session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])));
  return texts.join("\n").split(needle).length - 1;
}

/** What Codex appends when the user resumes and the model answers (the shapes its own rollouts have). */
function resumeInCodex(path: string): void {
  const at = new Date().toISOString();
  const line = (payload: Record<string, unknown>) =>
    `${JSON.stringify({ timestamp: at, type: "response_item", payload })}\n`;
  appendFileSync(
    path,
    line({ type: "message", role: "user", content: [{ type: "input_text", text: "Please continue." }] }) +
      line({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Continuing." }] }),
  );
}

test("a second hop states the first handshake's interrupted call again, once; the queued words stay the user's", async () => {
  const codexOut = await convert(
    claudeFixture("interrupted-queued"),
    "claude-code",
    "codex",
    join(root, "hop1.jsonl"),
  );
  const hermesOut = await convert(codexOut, "codex", "hermes", join(root, "hop2.jsonl"));
  const session = await BUILTIN_HARNESSES["hermes"].store.read(hermesOut);
  const text = handshakeOf(session);
  assert.ok(
    text.includes(
      "Interrupted tool calls (still running when the session stopped; no result was recorded):\n" +
        `- terminal (${CALL_ID})\n`,
    ),
    text,
  );
  assert.ok(!text.includes(QUEUED), text);
  assert.equal(occurrences(session, QUEUED), 1);
  assert.equal(readFileSync(hermesOut, "utf8").split(HANDSHAKE_OPEN).length - 1, 1);
});

test("after the target was resumed, the next handshake states the earlier hop's facts for the model to check", async () => {
  const codexOut = await convert(
    claudeFixture("interrupted-queued"),
    "claude-code",
    "codex",
    join(root, "r1.jsonl"),
  );
  resumeInCodex(codexOut);
  const claudeOut = await convert(codexOut, "codex", "claude-code", join(root, "r2.jsonl"));
  const session = await BUILTIN_HARNESSES["claude-code"].store.read(claudeOut);
  const text = handshakeOf(session);
  assert.ok(
    text.includes(
      "An earlier handoff left these pending and the conversation went on after it; check whether they were " +
        "dealt with:\n" +
        `- interrupted call: Bash (${CALL_ID})\n`,
    ),
    text,
  );
  assert.ok(!text.includes(QUEUED), "the queued words are in the thread, where they were typed");
  assert.equal(occurrences(session, QUEUED), 1);
});

test("a third hop still carries what the first handshake said", async () => {
  const one = await convert(
    claudeFixture("interrupted-queued"),
    "claude-code",
    "codex",
    join(root, "t1.jsonl"),
  );
  const two = await convert(one, "codex", "hermes", join(root, "t2.jsonl"));
  const three = await convert(two, "hermes", "claude-code", join(root, "t3.jsonl"));
  const session = await BUILTIN_HARNESSES["claude-code"].store.read(three);
  const text = handshakeOf(session);
  assert.ok(text.includes(`- Bash (${CALL_ID})\n`), text);
  assert.ok(!text.includes(QUEUED), text);
  assert.equal(occurrences(session, QUEUED), 1);
});

test("an unanswered call followed by Codex's turn_aborted stays pending after the conversation went on", async () => {
  const codexOut = await convert(
    claudeFixture("interrupted-queued"),
    "claude-code",
    "codex",
    join(root, "aborted.jsonl"),
    ["--no-stub-open-calls", "--no-handshake"],
  );
  assert.match(readFileSync(codexOut, "utf8"), /"type":"turn_aborted"/);
  resumeInCodex(codexOut);
  const session = await BUILTIN_HARNESSES["codex"].store.read(codexOut);
  assert.deepEqual(session.pending.openToolCalls.map((c) => [c.name, c.callId]), [["exec_command", CALL_ID]]);
});

test("an unanswered call the model moved on from without an abort is abandoned, not pending", () => {
  const message = (uid: string, role: Message["role"], blocks: Message["blocks"]): Message => ({
    uid,
    parentUid: null,
    role,
    kind: "turn",
    blocks,
  });
  const messages = [
    message("u1", "user", [{ type: "text", text: "run it" }]),
    message("a1", "assistant", [{ type: "tool_call", id: "c1", name: "Bash", input: { command: "ls" } }]),
    message("u2", "user", [{ type: "text", text: "never mind" }]),
    message("a2", "assistant", [{ type: "text", text: "ok" }]),
  ];
  assert.deepEqual(findPending(messages, []).openToolCalls, []);
  assert.deepEqual(findPending(messages, [], [2]).openToolCalls, [{
    callId: "c1",
    name: "Bash",
    messageUid: "a1",
  }]);
});

test("a handshake the target moved off the live thread is still carried, from what the handoff remembered", async () => {
  const r = await runCliJson([
    "convert",
    codexFixture("0.169.0", "killed"),
    "--from",
    "codex",
    "--to",
    "claude-code",
    "-o",
    join(root, "moved.out"),
  ]);
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  const path = join(root, `${id}.jsonl`);
  // What Claude Code 2.1.328 does on resume: the handshake record ends up on a branch of its own, outside the
  // thread the next reader follows. Here it is simply gone from the file.
  const kept = readFileSync(join(root, "moved.out"), "utf8").split("\n").filter((l) =>
    !l.includes(HANDSHAKE_OPEN)
  );
  writeFileSync(path, kept.join("\n"));
  const hermesOut = await convert(path, "claude-code", "hermes", join(root, "moved-hermes.jsonl"));
  const text = handshakeOf(await BUILTIN_HARNESSES["hermes"].store.read(hermesOut));
  assert.ok(
    text.includes(
      "Interrupted tool calls (still running when the session stopped; no result was recorded):\n" +
        "- terminal (call_e2bee841b2e44f0016d6c611)\n",
    ),
    text,
  );
});

test("each earlier handshake's facts count as already answered only when the model answered after that handshake", () => {
  const message = (
    uid: string,
    role: "user" | "assistant",
    kind: "turn" | "context",
    text: string,
  ): Message => ({
    uid,
    parentUid: null,
    role,
    kind,
    blocks: [{ type: "text", text }],
  });
  const handshake = (queued: string) => `${HANDSHAKE_OPEN}\n${QUEUED_HEADING}\n- ${JSON.stringify(queued)}\n`;
  const session: Session = {
    ...emptySession({ harness: "codex", id: "s1", models: [] }),
    messages: [
      message("h1", "user", "context", handshake("first hop's queued words")),
      message("a1", "assistant", "turn", "Done with those."),
      message("h2", "user", "context", handshake("second hop's queued words")),
    ],
  };
  const facts = newCarrySurvey();
  session.messages.forEach((m, i) => noteCarryFacts(facts, m, i));
  assert.deepEqual(carryPending(session.pending, session.earlierHandoff, facts).pending.queuedInput, [
    { text: "first hop's queued words", earlier: true },
    { text: "second hop's queued words" },
  ]);
});

/** Where in the live thread each text block holding `needle` stands (among all blocks), its role and kind. */
function placesOf(session: Session, needle: string): { at: number; role: string; kind: string }[] {
  const blocks = session.messages.flatMap((m) => m.blocks.map((b) => ({ b, role: m.role, kind: m.kind })));
  return blocks.flatMap(({ b, role, kind }, at) =>
    b.type === "text" && b.text.includes(needle) ? [{ at, role, kind }] : []
  );
}

test("a queued prompt never sent keeps its place, once, on every hop", async () => {
  const one = await convert(
    claudeFixture("interrupted-queued"),
    "claude-code",
    "codex",
    join(root, "q1.jsonl"),
  );
  const first = await BUILTIN_HARNESSES["codex"].store.read(one);
  // First hop: the user's words after the interrupted call's result, not only inside the handshake.
  const [queued] = placesOf(first, QUEUED);
  assert.deepEqual(placesOf(first, QUEUED), [{ at: queued!.at, role: "user", kind: "turn" }]);
  const result = first.messages.flatMap((m) => m.blocks).findIndex((b) =>
    b.type === "tool_result" && b.callId === CALL_ID
  );
  assert.ok(result !== -1 && result < queued!.at, "after the interrupted call's result");
  resumeInCodex(one);
  for (const to of ["claude-code", "hermes"] as const) {
    const out = await convert(one, "codex", to, join(root, `q2-${to}.out`));
    const second = await BUILTIN_HARNESSES[to].store.read(out);
    const places = placesOf(second, QUEUED);
    assert.equal(places.length, 1, `${to}: once`);
    assert.deepEqual([places[0]!.role, places[0]!.kind], ["user", "turn"], to);
    const [later] = placesOf(second, "Please continue.");
    assert.ok(later && places[0]!.at < later.at, `${to}: before the turn typed after the first hop`);
  }
});
