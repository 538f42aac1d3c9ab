import { test } from "node:test";
import assert from "node:assert/strict";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { holdMessages, type SessionStream, streamedMessages } from "../lib/ir/stream.ts";
import { BUILTIN_HARNESSES, builtinRegistry, type HarnessName } from "../lib/harnesses/registry.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import type { Harness } from "../lib/harnesses/types.ts";
import { emptySession } from "../lib/ir/session.ts";
import { noTranslation, type ToolSide, toolTranslator } from "../lib/tools/translate.ts";
import { editPatch, parsePatch } from "../lib/tools/apply-patch.ts";
import { noteNativeCalls, restoreProvenance, saveProvenance } from "../lib/tools/provenance.ts";
import { DetachedProofs } from "../lib/ir/reasoning.ts";
import { tempDir } from "./helpers/tmp.ts";

function sessionWith(harness: HarnessName, calls: { name: string; input: unknown }[], id = "s1"): Session {
  return {
    ...emptySession({ harness, id, models: [] }),
    messages: [{
      uid: "m1",
      parentUid: null,
      role: "assistant",
      kind: "turn",
      blocks: calls.map((c, i) => ({ type: "tool_call", id: `call_${i}`, ...c })),
    }],
  };
}

/** A session's thread translated from one harness's vocabulary to another's, with what was done. */
function translateTools(s: Session, from: Harness, to: Harness) {
  const stats = noTranslation();
  const side = (h: Harness): ToolSide => ({ name: h.name, tools: h.conversation.tools });
  const translate = toolTranslator(side(from), side(to));
  return { session: { ...s, messages: s.messages.map((m) => translate(m, stats)) }, stats };
}

const calls = (s: Session) =>
  s.messages[0]!.blocks.filter((b): b is Extract<Block, { type: "tool_call" }> => b.type === "tool_call");

/** Moves a session to another harness as a reader would see it there: same calls, new harness, natives kept. */
function hop(s: Session, to: HarnessName): Session {
  const { session } = translateTools(
    s,
    BUILTIN_HARNESSES[s.meta.harness as HarnessName],
    BUILTIN_HARNESSES[to],
  );
  return { ...session, meta: { ...session.meta, harness: to } };
}

test("a Claude Code Edit becomes a Codex apply_patch hunk and comes back as the identical Edit", () => {
  const edit = {
    name: "Edit",
    input: {
      file_path: "/p/a.ts",
      old_string: "let x = 1;\nlet y = 2;",
      new_string: "const x = 1;\nlet y = 2;",
    },
  };
  const codex = hop(sessionWith("claude-code", [edit]), "codex");
  const patch = calls(codex)[0]!;
  assert.equal(patch.name, "apply_patch");
  assert.equal(
    patch.input,
    "*** Begin Patch\n*** Update File: /p/a.ts\n@@\n-let x = 1;\n-let y = 2;\n+const x = 1;\n+let y = 2;\n*** End Patch",
  );
  const back = calls(hop(codex, "claude-code"))[0]!;
  assert.deepEqual({ name: back.name, input: back.input }, edit);
  assert.equal(back.native, undefined);
});

test("without the native form an apply_patch still maps back to an Edit by meaning", () => {
  const codex = sessionWith("codex", [{
    name: "apply_patch",
    input: editPatch("/p/a.ts", [{ oldText: "a", newText: "b" }]),
  }]);
  const claude = calls(hop(codex, "claude-code"))[0]!;
  assert.deepEqual({ name: claude.name, input: claude.input }, {
    name: "Edit",
    input: { file_path: "/p/a.ts", old_string: "a", new_string: "b" },
  });
});

test("MultiEdit becomes one hunk per edit, and a Write becomes an Add File patch", () => {
  const multi = {
    name: "MultiEdit",
    input: {
      file_path: "f",
      edits: [{ old_string: "a", new_string: "b" }, { old_string: "c", new_string: "d" }],
    },
  };
  const write = { name: "Write", input: { file_path: "new.txt", content: "one\ntwo\n" } };
  const codex = calls(hop(sessionWith("claude-code", [multi, write]), "codex"));
  assert.deepEqual(parsePatch(codex[0]!.input as string), {
    kind: "edit",
    path: "f",
    edits: [{ oldText: "a", newText: "b" }, { oldText: "c", newText: "d" }],
  });
  assert.equal(codex[1]!.input, "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** End Patch");
});

test("shell, read, search and plan calls map between all three vocabularies", () => {
  const source = sessionWith("claude-code", [
    { name: "Bash", input: { command: "npm test", timeout: 60000 } },
    { name: "Read", input: { file_path: "/p/x.ts", offset: 10, limit: 5 } },
    { name: "Grep", input: { pattern: "TODO", path: "src" } },
    {
      name: "TodoWrite",
      input: { todos: [{ content: "fix it", status: "in_progress", activeForm: "fixing it" }] },
    },
  ]);
  const codex = calls(hop(source, "codex")).map((c) => [c.name, c.input]);
  assert.deepEqual(codex, [
    ["exec_command", { cmd: "npm test" }],
    ["exec_command", { cmd: "sed -n '10,14p' /p/x.ts" }],
    ["exec_command", { cmd: "rg -n TODO src" }],
    ["update_plan", { plan: [{ step: "fix it", status: "in_progress" }] }],
  ]);
  const hermes = calls(hop(source, "hermes")).map((c) => [c.name, c.input]);
  assert.deepEqual(hermes, [
    ["terminal", { command: "npm test", timeout: 60 }],
    ["read_file", { path: "/p/x.ts", offset: 10, limit: 5 }],
    ["search_files", { pattern: "TODO", target: "content", path: "src" }],
    ["todo", { todos: [{ id: "1", content: "fix it", status: "in_progress" }] }],
  ]);
});

test("A to B to C to A restores every call exactly, even where the middle hops were lossy", () => {
  const original = [
    { name: "Read", input: { file_path: "/p/x.ts", offset: 3 } },
    { name: "Bash", input: { command: "ls", description: "list", timeout: 1000 } },
    {
      name: "Edit",
      input: { file_path: "/p/x.ts", old_string: "a\n", new_string: "b\n", replace_all: true },
    },
  ];
  const back = hop(hop(hop(sessionWith("claude-code", original), "codex"), "hermes"), "claude-code");
  assert.deepEqual(calls(back).map((c) => ({ name: c.name, input: c.input })), original);
});

test("a tool with no equivalent passes through by name and is counted", () => {
  const { session, stats } = translateTools(
    sessionWith("claude-code", [{ name: "ScheduleWakeup", input: { delaySeconds: 5 } }]),
    BUILTIN_HARNESSES["claude-code"],
    BUILTIN_HARNESSES.codex,
  );
  assert.equal(calls(session)[0]!.name, "ScheduleWakeup");
  assert.deepEqual(stats.passedThrough, ["ScheduleWakeup"]);
});

test("native forms survive a round trip through the provenance file of the written session", () => {
  const bridgeHome = tempDir();
  const codex = hop(sessionWith("claude-code", [{ name: "Read", input: { file_path: "/p/x.ts" } }]), "codex");
  const native = {};
  for (const m of codex.messages) noteNativeCalls(m, native);
  saveProvenance(bridgeHome, "codex", "0190a7d2-1111-7000-8000-000000000000", {
    calls: native,
    reasoning: new DetachedProofs(),
  });
  const reread = sessionWith(
    "codex",
    [{ name: "exec_command", input: { cmd: "sed -n '1,$p' /p/x.ts" } }],
    "0190a7d2-1111-7000-8000-000000000000",
  );
  const restored = calls(restoreProvenance(bridgeHome, reread))[0]!;
  assert.deepEqual(restored.native, {
    harness: "claude-code",
    name: "Read",
    input: { file_path: "/p/x.ts" },
  });
});

test("calls in threads kept apart are translated and counted with the live thread's", async () => {
  const live = sessionWith("claude-code", [{ name: "Read", input: { file_path: "/p/x.ts" } }]);
  const subagent = sessionWith("claude-code", [{ name: "Read", input: { file_path: "/p/y.ts" } }]).messages;
  const session: Session = {
    ...live,
    meta: { ...live.meta, cwd: "/p" },
    threads: [{ id: "agent-1", kind: "subagent", messages: subagent }],
  };
  const prepared = await prepareConversion(session, BUILTIN_HARNESSES.codex, {
    registry: builtinRegistry,
    handshake: false,
    now: new Date(0),
  });
  assert.equal(prepared.report.entries.find((e) => e.code === "tools-translated")?.count, 2);
  const [made] = prepared.session.threads[0]!.messages;
  assert.equal(made!.blocks[0]!.type, "tool_call");
  const [call] = made!.blocks;
  assert.equal(call?.type === "tool_call" ? call.native?.name : undefined, "Read");
});

test("a thread kept apart is made fit as the writer reads it, not held made fit beside its source: each read makes its messages anew, alike, and what making them fit did is counted once", async () => {
  const live = sessionWith("claude-code", [{ name: "Read", input: { file_path: "/p/x.ts" } }]);
  const [history] = sessionWith("claude-code", [{ name: "Read", input: { file_path: "/p/y.ts" } }]).messages;
  const thinking: Block = { type: "reasoning", text: "checking y", provider: "anthropic", signature: "sig" };
  const session: Session = {
    ...live,
    meta: { ...live.meta, cwd: "/p" },
    threads: [{
      id: "compacted",
      kind: "compacted",
      messages: [{ ...history!, blocks: [thinking, ...history!.blocks] }],
    }],
  };
  const prepared = await prepareConversion(session, BUILTIN_HARNESSES.codex, {
    registry: builtinRegistry,
    handshake: false,
    now: new Date(0),
  });
  const thread = prepared.session.threads[0]!.messages;
  const [first] = [...thread];
  const [second] = [...thread];
  assert.deepEqual(second, first);
  assert.notEqual(second, first, "made again on the second read: the prepared session holds none made fit");
  assert.equal(first!.blocks[0]!.type === "reasoning" ? first!.blocks[0]!.signature : "", undefined);
  const count = (code: string) => prepared.report.entries.find((e) => e.code === code)?.count;
  assert.equal(count("tools-translated"), 2);
  assert.equal(count("reasoning-proofs-dropped"), 1);
  assert.equal(prepared.memory.reasoning.count, 1);
});

test("a message made fit again as the writer reads it runs only the steps the survey found change it, and reads as the thread made fit once: kept apart, streamed, or held", async () => {
  const at = (uid: string, role: "user" | "assistant", blocks: Block[]): Message => ({
    uid,
    parentUid: null,
    role,
    kind: "turn",
    blocks,
  });
  const thread: Message[] = [
    at("plain", "user", [{ type: "text", text: "hello <b>there</b>" }]),
    at("call", "assistant", [{ type: "tool_call", id: "c1", name: "Read", input: { file_path: "/p/y.ts" } }]),
    at("result", "user", [{
      type: "tool_result",
      callId: "c1",
      isError: false,
      content: [{ type: "text", text: "<system-reminder>obey</system-reminder> \u001b[31mred" }],
    }]),
    at("thought", "assistant", [
      { type: "reasoning", text: "checking <system-reminder>", provider: "anthropic", signature: "sig" },
      { type: "text", text: "done" },
      { type: "tool_call", id: "c2", name: "Bash", input: { command: "ls" } },
    ]),
    at("answer", "user", [{
      type: "tool_result",
      callId: "c2",
      isError: false,
      content: [{ type: "text", text: "a.ts" }],
    }]),
  ];
  const base = emptySession({ harness: "claude-code", id: "s1", models: [] });
  const session = (messages: SessionStream["messages"], threads: Session["threads"] = []): SessionStream => ({
    ...base,
    meta: { ...base.meta, cwd: "/p" },
    messages,
    threads,
  });
  const prepare = (s: SessionStream) =>
    prepareConversion(s, BUILTIN_HARNESSES.codex, {
      registry: builtinRegistry,
      handshake: false,
      now: new Date(0),
    });
  const once = await holdMessages((await prepare(session(thread))).session.messages);
  assert.equal(once.length, thread.length);
  const apart = await prepare(session([at("last", "user", [{ type: "text", text: "go on" }])], [{
    id: "compacted",
    kind: "compacted",
    messages: thread,
  }]));
  const kept = apart.session.threads[0]!.messages;
  assert.deepEqual([...kept], once);
  assert.deepEqual([...kept], once, "read again");
  const streamed = (await prepare(session(streamedMessages(async function* () {
    yield* thread;
  })))).session.messages;
  assert.deepEqual(await holdMessages(streamed), once);
  assert.deepEqual(await holdMessages(streamed), once, "read again");
});

test("a call passed through a harness with no equivalent keeps its first harness's form: a Copilot task through Codex into OpenCode, whose own tool is also named task, comes back as written", () => {
  const task = {
    name: "task",
    input: { description: "Scout", prompt: "SCOUT: count the files.", agent_type: "explore", name: "scout" },
  };
  const viaCodex = hop(sessionWith("copilot-cli", [task]), "codex");
  assert.deepEqual(calls(viaCodex)[0]!.native, { harness: "copilot-cli", ...task });
  const back = hop(hop(viaCodex, "opencode"), "copilot-cli");
  assert.deepEqual(calls(back).map((c) => ({ name: c.name, input: c.input })), [task]);
});
