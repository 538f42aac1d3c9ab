/**
 * Reading Pi sessions through the real CLI,
 * from agent folders laid out as the 0.73.1 binary leaves them with the captured fixtures
 * (fixtures/pi/0.73.1/). Every expectation is written by hand from the fixture files and the `pi -r` listings
 * captured beside them: ids, prompts and times as they stand there.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { homeFlags, runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { makePiHome, seedPiHome } from "./helpers/harnesses/pi.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { pi } from "../lib/harnesses/pi/index.ts";
import type { Message, Session } from "../lib/ir/schema.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/pi/0.73.1/", import.meta.url));
const registry = builtinRegistry;
const root = tempDir("sb-pi-read-");
const fixture = (name: string) => join(FIXTURES, `${name}.jsonl`);

const SESSIONS = readdirSync(FIXTURES).filter((f) => f.endsWith(".jsonl") && !f.includes(".requests."));

let homes = 0;
function home(...scenarios: string[]): { home: string; files: string[] } {
  const dir = join(root, `home-${++homes}`);
  makePiHome(dir);
  return { home: dir, files: scenarios.map((s) => seedPiHome(fixture(s), dir)) };
}

async function piCli(dir: string, ...args: string[]) {
  const r = await runCli(
    [...args, ...homeFlags({}, root), "--pi-home", dir, "--json"],
    {},
    undefined,
    registry,
  );
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

async function shown(dir: string, id: string): Promise<Session> {
  return (await piCli(dir, "show", id)).session as Session;
}

const texts = (m: Message) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []));
const uids = (messages: Message[]) => messages.map((m) => m.uid);

interface Row {
  harness: string;
  id: string;
  title?: string;
  cwd?: string;
  updatedAt?: string;
  messages?: number;
}

test("list shows every Pi session as pi -r does: its name or first user message, the header's cwd, its newest message's time", async () => {
  const { home: dir } = home(
    ...SESSIONS.map((f) => f.replace(/\.jsonl$/, "")).filter((s) => !s.includes(".")),
  );
  const rows = ((await piCli(dir, "list", "--from", "pi")).sessions as Row[]).filter((r) =>
    r.harness === "pi"
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  assert.equal(rows.length, 11, "ten scenarios, the forked one with two files");
  // interactive: `/name Kitchen review` names it; its newest message is the last answer, not the name entry.
  assert.deepEqual(byId.get("01a23c1e-5da5-715e-8210-1a9cec41052a"), {
    ...byId.get("01a23c1e-5da5-715e-8210-1a9cec41052a"),
    title: "Kitchen review",
    cwd: "/home/user/project",
    updatedAt: "2026-12-03T13:35:54.332Z",
    messages: 6,
  });
  // branched: the first user message, every branch's messages counted (the listing's "8").
  const branched = byId.get("01a23c1e-f1b3-73e0-83e7-4d2a1ac73131")!;
  assert.equal(branched.title, "Please say hello to the reviewer.");
  assert.equal(branched.messages, 8);
  assert.equal(branched.updatedAt, "2026-12-03T13:36:36.594Z");
  // The fork is a session of its own.
  assert.equal(byId.get("01a23c1d-f6a1-75e9-95e1-bc3b47c3543e")?.title, "Please greet the reviewer.");
});

test("a file whose first line is no session header is left out of the list, as pi -r leaves it out", async () => {
  const { home: dir } = home("exec");
  writeFileSync(
    join(dir, "sessions", "--home-user-project--", "stray.jsonl"),
    '{"type":"message","id":"a"}\n',
  );
  const rows = ((await piCli(dir, "list", "--from", "pi")).sessions as Row[]).filter((r) =>
    r.harness === "pi"
  );
  assert.deepEqual(rows.map((r) => r.id), ["01a23c1c-5e56-76f1-b152-f8e74b338937"]);
});

test("every captured Pi session reads with no drift", async () => {
  for (const name of SESSIONS) {
    const session = await pi.store.read(join(FIXTURES, name));
    assert.deepEqual(session.drift, [], name);
    assert.deepEqual(session.notices, [], name);
  }
});

test("a branched session reads as Pi resumes it: the last entry's branch is live, the branches it left are kept apart", async () => {
  const { home: dir } = home("branched");
  const s = await shown(dir, "01a23c1e-f1b3-73e0-83e7-4d2a1ac73131");
  assert.deepEqual(uids(s.messages), ["97cdd4c1", "e662ce96", "f82e2946", "688513d2"]);
  assert.deepEqual(texts(s.messages[2]!), ["Or rather, about tidy kitchens."]);
  assert.deepEqual(
    s.threads.map((t) => [t.kind, uids(t.messages), t.messages[0]!.parentUid]),
    [
      ["abandoned-branch", ["2e42ed94", "8bd0d755"], "e662ce96"],
      // The branch summary /tree wrote leads the branch it was written for.
      ["abandoned-branch", ["aadfb90b", "3952f1eb", "01573258"], "e662ce96"],
    ],
  );
  assert.equal(s.threads[1]!.messages[0]!.kind, "summary");
});

test("a compacted session reads from its summary and the entries it kept; what it summarized is compacted history", async () => {
  const { home: dir } = home("compacted");
  const s = await shown(dir, "01a23c1e-c051-756f-b959-ca3a54ae4071");
  assert.deepEqual(uids(s.messages), ["61ab8e7a", "c645f9aa", "561b1b0f", "088833da"]);
  assert.equal(s.messages[0]!.kind, "summary");
  assert.match(texts(s.messages[0]!)[0]!, /^SUMMARY: digest 572a8b1c/);
  assert.deepEqual(s.threads.map((t) => [t.kind, uids(t.messages)]), [
    ["compacted", ["9ba51ab7", "5c041ffe", "ca6e7d38", "3b4d2dd4", "cdc04212", "ddc8f5d3", "ff13ec6e"]],
  ]);
  // Titled by the first thing typed, in the compacted history.
  assert.equal(s.meta.title, "Please say hello to the reviewer.");
});

test("an aborted command reads as Pi resumes it: its result says so, the empty aborted response is left out", async () => {
  const { home: dir } = home("interrupted");
  const s = await shown(dir, "01a23c1e-91dd-7282-a5ab-c87b813fda69");
  assert.deepEqual(uids(s.messages), [
    "b1eefd7a",
    "70a36904",
    "0ffc1317",
    "9cccdaee",
    "3957fa0e",
    "e34dd745",
    "e9057c2f",
  ]);
  const result = s.messages[4]!.blocks[0]!;
  assert.deepEqual(result, {
    type: "tool_result",
    callId: "call_fake0001",
    isError: true,
    content: [{ type: "text", text: "Command aborted" }],
  });
  assert.deepEqual(s.pending, { openToolCalls: [], queuedInput: [], interruptedTurn: false });
});

test("a call killed mid-tool and moved on from reads as the file holds it, without a result: 'No result provided' is only what Pi sends for it", async () => {
  const { home: dir } = home("killed-mid-tool");
  const s = await shown(dir, "01a23c1e-2c6f-7746-a02e-ad37e76a17b2");
  assert.deepEqual(s.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
  assert.deepEqual(s.messages[1]!.blocks.filter((b) => b.type === "tool_call").map((b) => b.id), [
    "call_fake0001",
  ]);
  assert.equal(s.messages.some((m) => m.blocks.some((b) => b.type === "tool_result")), false);
  // Moved on from, as every reader takes a call the model went past without its result: no call is in flight.
  // What Pi itself sends for it is its descriptor's unansweredCalls, which the loss report names.
  assert.deepEqual(s.pending.openToolCalls, []);
});

test("a call killed mid-tool with nothing after it is pending, the turn interrupted", async () => {
  const { home: dir, files: [file] } = home("killed-mid-tool");
  // The file as the kill left it, before the resume appended to it: header, two settings, prompt, the call.
  writeFileSync(file!, readFileSync(file!, "utf8").split("\n").slice(0, 5).join("\n") + "\n");
  const s = await shown(dir, "01a23c1e-2c6f-7746-a02e-ad37e76a17b2");
  assert.deepEqual(s.pending, {
    openToolCalls: [{ callId: "call_fake0001", name: "bash", messageUid: "143073b0" }],
    queuedInput: [],
    interruptedTurn: true,
  });
});

test("a model given on resume shows only in the answers' model: both models read, the last one's provider resumes", async () => {
  const { home: dir } = home("resumed");
  const s = await shown(dir, "01a23c1d-4c2e-7542-999f-dd03b9617bc0");
  assert.deepEqual(s.meta.models, ["fake/fake-model", "fake/fake-model-b"]);
  assert.equal(s.meta.provider, "fake");
  assert.equal(s.messages.filter((m) => m.role === "user").length, 4);
});

test("reasoning over openai-completions is text, never a proof: its signature names the field it came in", async () => {
  const { home: dir } = home("reasoning");
  const s = await shown(dir, "01a23c1c-d9a8-770d-ab5a-8457c2596b62");
  const reasoning = s.messages.flatMap((m) => m.blocks).filter((b) => b.type === "reasoning");
  assert.equal(reasoning.length, 2);
  for (const block of reasoning) {
    assert.equal(block.provider, "other");
    assert.equal("signature" in block, false);
    assert.equal(pi.conversation.provesReasoning(s, block), false);
  }
});

test("a fork reads whole from its own file: the source's turn, then its own", async () => {
  const { home: dir } = home("forked");
  const s = await shown(dir, "01a23c1d-f6a1-75e9-95e1-bc3b47c3543e");
  assert.deepEqual(s.messages.filter((m) => m.role === "user").map(texts), [
    ["Please greet the reviewer."],
    ["Continue in the fork."],
  ]);
});

test("a new shape is drift: an entry type and a field Pi 0.73.1 does not write are named with their lines", async () => {
  const { files: [file] } = home("exec");
  const lines = readFileSync(file!, "utf8").trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  lines.push(
    JSON.stringify({
      type: "mood",
      id: "0000beef",
      parentId: last.id,
      timestamp: "2026-12-03T13:40:00.000Z",
    }),
  );
  lines[1] = JSON.stringify({ ...JSON.parse(lines[1]!), flavour: "new" });
  writeFileSync(file!, lines.join("\n") + "\n");
  const s = await pi.store.read(file!);
  assert.deepEqual(s.drift.map((d) => [d.where, d.problem, d.examples]), [
    ["record:model_change", "unknown field /flavour", [2]],
    ["record:mood", "unknown record type", [6]],
  ]);
});

test("parent links that loop end the live branch where they close, and say so", async () => {
  const { files: [file] } = home("exec");
  const lines = readFileSync(file!, "utf8").trimEnd().split("\n");
  // The first entry made the child of the last: a loop no walk of the tree may follow forever.
  const first = JSON.parse(lines[1]!) as Record<string, unknown>;
  const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  lines[1] = JSON.stringify({ ...first, parentId: last.id });
  writeFileSync(file!, lines.join("\n") + "\n");
  const s = await pi.store.read(file!);
  assert.deepEqual(s.messages.map((m) => m.role), ["user", "assistant"]);
  assert.match(s.notices.join("\n"), /parent links loop/);
});

test("a file that is no Pi session is refused naming it and its line", async () => {
  const dir = tempDir("sb-pi-bad-");
  const file = join(dir, "2026-12-03T13-00-00-000Z_01a23c1c-5e56-76f1-b152-f8e74b338937.jsonl");
  writeFileSync(file, '{"type":"message","id":"a"}\n');
  await assert.rejects(
    pi.store.read(file),
    new RegExp(`${file.replace(/[.]/g, "\\.")}:1: no session header`),
  );
});
