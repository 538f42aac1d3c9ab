/**
 * Every captured Gemini CLI scenario read as the CLI itself shows it on resume: the expectations are written by
 * hand from the fixture files and from `<scenario>.requests.jsonl` (what the binary sent when it resumed), for
 * 0.61.0's second capture (rewind, kill mid-tool, compression, thoughts, /chat resume, legacy migration, several
 * projects, a resume in a later minute) and the older versions 0.51.0 and 0.36.0 (legacy `.json`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { seedGeminiHome } from "./helpers/harnesses/gemini-cli.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { readGeminiSession } from "../lib/harnesses/gemini-cli/read.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/gemini-cli/", import.meta.url));
const root = tempDir("sb-gemini-scenarios-");

let homes = 0;
/** A fresh home holding one captured file (`<version>/<name>`) and what its scenario left beside it. */
function home(fixture: string): { home: string; file: string } {
  const dir = join(root, `home-${++homes}`);
  return { home: dir, file: seedGeminiHome(join(FIXTURES, fixture), dir) };
}

const flags = (dir: string) => homeFlags({ "gemini-cli": dir }, root);

async function shown(dir: string, id: string): Promise<Session> {
  const r = await runCliJson(["show", id, ...flags(dir)]);
  assert.equal(r.code, 0, r.stderr);
  return r.json.session as Session;
}

interface Row {
  harness: string;
  id: string;
  path: string;
  cwd?: string;
  title?: string;
}

async function listed(dir: string): Promise<Row[]> {
  const r = await runCliJson(["list", ...flags(dir)]);
  assert.equal(r.code, 0, r.stderr);
  return (r.json.sessions as Row[]).filter((s) => s.harness === "gemini-cli");
}

const texts = (m: Message) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []));
const typed = (messages: Message[]) =>
  messages.filter((m) => m.role === "user" && m.kind === "turn").flatMap(texts);
const replies = (messages: Message[]) => messages.filter((m) => m.role === "assistant").flatMap(texts);
const reasoning = (m: Message) => m.blocks.flatMap((b) => (b.type === "reasoning" ? [b.text] : []));
const calls = (s: Session) => s.messages.flatMap((m) => m.blocks).filter((b) => b.type === "tool_call");
const results = (s: Session) => s.messages.flatMap((m) => m.blocks).filter((b) => b.type === "tool_result");
const context = (messages: Message[]) => messages.filter((m) => m.kind === "context").flatMap(texts);
const SESSION_CONTEXT = /^<session_context>\n/;

test("a rewound session reads as the CLI resumes it: the kept turns then the new ones live, the dropped turns an abandoned branch", async () => {
  const { home: dir } = home("0.61.0/rewound.jsonl");
  const s = await shown(dir, "0b8214d0-03de-491a-95f7-02830046d713");
  assert.deepEqual(typed(s.messages), [
    "First typed line about river boats",
    "A new second line about canal locks",
    "Resumed after the rewind: one word on tides",
  ]);
  assert.deepEqual(replies(s.messages), [
    "ASSISTANT-REPLY: acknowledged, turn 1, digest 75a470f9.",
    "ASSISTANT-REPLY: acknowledged, turn 2, digest e2993e36.",
    "ASSISTANT-REPLY: acknowledged, turn 3, digest 4a3f784c.",
  ]);
  assert.deepEqual(s.threads.map((t) => [t.kind, typed(t.messages), replies(t.messages)]), [[
    "abandoned-branch",
    ["Second typed line about harbour cranes", "Third typed line about signal flags"],
    [
      "ASSISTANT-REPLY: acknowledged, turn 2, digest a49fb1f3.",
      "ASSISTANT-REPLY: acknowledged, turn 3, digest 865289c0.",
    ],
  ]]);
});

test("a session killed mid-tool has no call to answer: its model message keeps only its thought, and the next prompt follows the killed one", async () => {
  const { home: dir } = home("0.61.0/killed-mid-tool.jsonl");
  const s = await shown(dir, "9e4fb01e-0c5e-4412-ac27-9587030b9c2d");
  assert.deepEqual(typed(s.messages), ["TOOL: sleep 47", "After the kill: say what happened"]);
  assert.deepEqual(calls(s), []);
  assert.deepEqual(s.pending.openToolCalls, []);
  assert.equal(s.pending.interruptedTurn, false);
  const killed = s.messages.find((m) => m.uid === "93b675cd-f992-4b03-9a40-18f3c5bc4273")!;
  assert.deepEqual(texts(killed), []);
  assert.deepEqual(reasoning(killed), [
    "**Running a command** The user wants a shell command run; calling run_shell_command.",
  ]);
});

test("a compressed session reads as the CLI resumes it: the compression's snapshot is a summary, not the user's words, then the kept and later turns", async () => {
  const { home: dir } = home("0.61.0/compressed.jsonl");
  const s = await shown(dir, "074171f1-2ff3-41fd-9902-e0ccaac523bf");
  const summaries = s.messages.filter((m) => m.kind === "summary");
  assert.equal(summaries.length, 1);
  assert.match(texts(summaries[0]!).join(""), /^<state_snapshot>\n<overall_goal>FAKE snapshot/);
  assert.deepEqual(typed(s.messages), [
    "Third typed line about signal flags",
    "Fourth typed line about canal locks",
    "After the compression: a word on tides",
    "Resumed after the compression: one word on ferries",
  ]);
  assert.equal(replies(s.messages)[0], "Got it. Thanks for the additional context!");
});

test("a compressed session keeps the history its compression replaced as a compacted thread, read from the records above the checkpoint", async () => {
  const s = await readGeminiSession(join(FIXTURES, "0.61.0", "compressed.jsonl"));
  const compacted = s.threads.filter((t) => t.kind === "compacted");
  assert.equal(compacted.length, 1);
  assert.deepEqual(typed(compacted[0]!.messages), [
    "First typed line about river boats",
    "TOOL: seq 1 2000",
    "Third typed line about signal flags",
    "Fourth typed line about canal locks",
  ]);
  assert.ok(
    compacted[0]!.messages.some((m) => m.blocks.some((b) => b.type === "tool_result")),
    "the call's result",
  );
  // A resume's own checkpoints (its start rewrites the list) replace nothing: one compression, one thread.
  assert.equal(s.messages.filter((m) => m.kind === "summary").length, 1);
});

test("thoughts read as reasoning, a subject joined to its description and a plain thought alone, with the usage the message's own line recorded though a checkpoint dropped it", async () => {
  const { home: dir } = home("0.61.0/reasoning.jsonl");
  const s = await shown(dir, "6a927586-6761-4eb6-ba49-b2202deba8d2");
  const thinking = s.messages.find((m) => m.uid === "addd2ed7-0c9a-4dcf-a683-59f27a0fd789")!;
  assert.deepEqual(reasoning(thinking), [
    "**Weighing the request** The user asks for `echo thought-out`; its output settles the question.",
    "Running it through the shell is the quickest check.",
  ]);
  assert.deepEqual(texts(thinking), ["Let me check with a command."]);
  assert.deepEqual(thinking.usage, {
    inputTokens: 146,
    outputTokens: 73,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  assert.equal(calls(s).length, 1);
  assert.equal(results(s).length, 1);
  assert.deepEqual(typed(s.messages), ["THINK: echo thought-out", "And what did the thinking decide?"]);
});

test("/chat resume reads as the CLI goes on: the loaded first prompt is the user's words though its message starts with the session context, and the turn typed after the save is gone", async () => {
  const { home: dir } = home("0.61.0/chat-saved.jsonl");
  const s = await shown(dir, "b4308568-add7-489f-ba95-60fb21061c7c");
  assert.deepEqual(typed(s.messages), [
    "First typed line about river boats",
    "Third typed line after loading the checkpoint",
  ]);
  const ctx = context(s.messages);
  assert.equal(ctx.length, 1);
  assert.match(ctx[0]!, SESSION_CONTEXT);
  assert.deepEqual(replies(s.messages), [
    "ASSISTANT-REPLY: acknowledged, turn 1, digest 75a470f9.",
    "ASSISTANT-REPLY: acknowledged, turn 2, digest aeb9d501.",
  ]);
});

test("a legacy .json beside the .jsonl a resume migrated it to is one session, listed and read from the .jsonl", async () => {
  const { home: dir, file } = home("0.61.0/legacy-resumed.json");
  const id = "931c4bf7-8839-4e42-a48b-f01ee02cb98e";
  const rows = await listed(dir);
  assert.deepEqual(rows.map((r) => [r.id, r.path]), [[id, `${file}l`]]);
  const s = await shown(dir, id);
  assert.deepEqual(typed(s.messages), [
    "A legacy prompt about canal boats",
    "Resumed by the new version: one word on locks",
  ]);
});

test("two projects with the same folder name (slugs project and project-1) each list their own session in their own path", async () => {
  const { home: dir } = home("0.61.0/several-projects.jsonl");
  const rows = (await listed(dir)).map((r) => [r.id, r.cwd, r.title]).sort();
  assert.deepEqual(rows, [
    ["d0802e4e-9e6e-41d9-8686-853563d0a192", "/home/user/work/project", "Fake title eb7aecb9"],
    ["f7b3c7ca-fe11-483a-aee8-57e18bfdde90", "/home/user/project", "Fake title f675d4a3"],
  ]);
  const second = await shown(dir, "d0802e4e-9e6e-41d9-8686-853563d0a192");
  assert.deepEqual(typed(second.messages), ["A prompt from the second project about compasses"]);
  assert.equal(second.meta.cwd, "/home/user/work/project");
});

test("the stub a resume in a later minute left beside the session: the id names the session file, whose every turn show reads", async () => {
  const { home: dir, file } = home("0.61.0/resumed-next-minute.jsonl");
  const id = "714da1ba-df94-4ca6-ac9e-1341b6c409a7";
  assert.deepEqual((await listed(dir)).map((r) => [r.id, r.path]), [[id, file]]);
  const s = await shown(dir, id);
  assert.equal(s.meta.path, file);
  assert.deepEqual(typed(s.messages), [
    "A first prompt about lighthouse keepers",
    "A resumed prompt, a minute later",
  ]);
});

test("Gemini CLI 0.51.0 sessions read as 0.61.0's: three runs' prompts in one file, a cancelled call failed", async () => {
  const resumed = home("0.51.0/exec-resumed.jsonl");
  assert.deepEqual(typed((await shown(resumed.home, "db54d233-e162-4f46-820d-603cad5e080d")).messages), [
    "Please greet the reviewer with one sentence about tidy kitchens.",
    "Now add a second remark, about quiet libraries.",
    "And a third, about early trains.",
  ]);
  const interrupted = home("0.51.0/interrupted.jsonl");
  const [row] = await listed(interrupted.home);
  const s = await shown(interrupted.home, row!.id);
  const failed = results(s).filter((r) => r.type === "tool_result" && r.isError);
  assert.equal(failed.length, 1);
  assert.equal(calls(s).length, 1);
});

test("Gemini CLI 0.36.0 whole-session .json files are listed and read: no recorded context, the tool result from the call alone, three runs in one file", async () => {
  const tool = home("0.36.0/exec-tool.json");
  const s = await shown(tool.home, "a1c287e8-48a6-4732-9b4d-84da89298f22");
  assert.deepEqual(typed(s.messages), ["TOOL: echo fixture-out"]);
  assert.deepEqual(context(s.messages), []);
  assert.deepEqual(calls(s).map((c) => c.type === "tool_call" && c.id), [
    "run_shell_command_1796294375014_0",
  ]);
  assert.deepEqual(
    results(s).map((r) => r.type === "tool_result" && [r.callId, r.isError]),
    [["run_shell_command_1796294375014_0", false]],
  );
  const resumed = home("0.36.0/exec-resumed.json");
  const [row] = await listed(resumed.home);
  assert.equal(row!.id, "3ef2e123-4473-4936-8a48-407975570b8c");
  assert.deepEqual(typed((await shown(resumed.home, row!.id)).messages), [
    "Please greet the reviewer with one sentence about tidy kitchens.",
    "Now add a second remark, about quiet libraries.",
    "And a third, about early trains.",
  ]);
});

test("drift checks a legacy .json against 0.36.0, the version that writes one, and is loud on a field it does not write", async () => {
  const { home: dir, file } = home("0.36.0/exec-tool.json");
  const quiet = await runCliJson(["drift", ...flags(dir)]);
  assert.equal(quiet.json.clean, true, quiet.stdout);
  const document = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...document, memoryScratchpad: { secret: "secret words" } }, null, 2));
  const loud = await runCli(["drift", ...flags(dir)]);
  assert.equal(loud.code, 1, loud.stdout);
  assert.match(loud.stdout, /gemini-cli 0\.36\.0 +record:session: unknown field \/memoryScratchpad/);
  assert.doesNotMatch(loud.stdout, /secret words/);
});

test("drift on a 0.51.0 log is quiet, and loud on a $set key no version writes", async () => {
  const { home: dir, file } = home("0.51.0/exec-tool.jsonl");
  assert.equal((await runCliJson(["drift", ...flags(dir)])).json.clean, true);
  appendFileSync(file, `${JSON.stringify({ $set: { brandNewKey: "secret words" } })}\n`);
  const loud = await runCli(["drift", ...flags(dir)]);
  assert.equal(loud.code, 1, loud.stdout);
  assert.match(loud.stdout, /record:set: unknown field \/\$set\/brandNewKey/);
  assert.doesNotMatch(loud.stdout, /secret words/);
});

test("a session id that is no plain name (a path, a megabyte of letters) names no subagents' folder: the log is read, nothing outside its folder", async () => {
  const dir = tempDir("sb-gemini-ids-");
  const chats = join(dir, "chats");
  mkdirSync(join(dir, "outside"), { recursive: true });
  mkdirSync(chats, { recursive: true });
  // A log elsewhere that a path-like id would reach (`chats/../outside/`).
  writeFileSync(join(dir, "outside", "x.jsonl"), "not a log\n");
  for (const id of ["../outside", "A".repeat(1024 * 1024)]) {
    const path = join(chats, "session-2026-12-01T10-00-aaaaaaaa.jsonl");
    writeFileSync(
      path,
      [
        { sessionId: "aaaaaaaa-0000-4000-8000-000000000000", projectHash: "0".repeat(64) },
        { $set: { sessionId: id } },
        { id: "m1", timestamp: "2026-12-01T10:00:01.000Z", type: "user", content: [{ text: "hello" }] },
      ].map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
    const session = await readGeminiSession(path);
    assert.equal(session.threads.length, 0);
    assert.deepEqual(session.messages.map((m) => m.kind), ["turn"]);
  }
});
