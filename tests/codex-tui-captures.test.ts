/**
 * What the real Codex TUI recorded (fixtures typed through tmux by acceptance/capture-codex-fixtures.ts) reads as
 * the conversation the person had: typed prompts are user turns, Codex's own injections are context, and an
 * interrupted shell call keeps its command and Codex's "aborted by user" output, followed by the queued words.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readCodexSession } from "../lib/harnesses/codex/read.ts";
import type { Block, Message } from "../lib/ir/schema.ts";
import { codexFixture } from "./helpers/codex.ts";

const userWords = (messages: Message[]) =>
  messages.filter((m) => m.role === "user" && m.kind === "turn").map((m) =>
    m.blocks.map((b) => (b.type === "text" ? b.text : "")).join("")
  );
const blocksOf = <T extends Block["type"]>(messages: Message[], type: T) =>
  messages.flatMap((m) => m.blocks.filter((b): b is Extract<Block, { type: T }> => b.type === type));

for (const version of ["0.169.0", "0.171.0"] as const) {
  test(`${version}: prompts typed into the Codex TUI are the user's words, in order, and title the thread`, async () => {
    const s = await readCodexSession(codexFixture(version, "interactive"));
    assert.deepEqual(userWords(s.messages), [
      "Please remember the harbour word LANTERN for later.",
      "TOOL: echo typed-tool-ran",
    ]);
    assert.equal(s.meta.title, "Please remember the harbour word LANTERN for later.");
    assert.deepEqual(s.drift, []);
  });

  test(`${version}: a shell call cancelled with Esc keeps its command and Codex's aborted output; the queued words follow once`, async () => {
    const s = await readCodexSession(codexFixture(version, "interactive-interrupted"));
    const call = blocksOf(s.messages, "tool_call").find((c) =>
      JSON.stringify(c.input).includes("sleep 300")
    )!;
    assert.deepEqual(call.input, { cmd: "sleep 300" });
    const result = blocksOf(s.messages, "tool_result").find((r) => r.callId === call.id)!;
    assert.match(JSON.stringify(result.content), /aborted by user/);
    assert.deepEqual(userWords(s.messages), [
      "Please remember the orchard word QUINCE for later.",
      "TOOL: sleep 300",
      "Words typed while the command ran, about copper kettles.",
    ]);
    const aborted = s.messages.find((m) => JSON.stringify(m.blocks).includes("<turn_aborted>"))!;
    assert.equal(aborted.kind, "context");
    assert.deepEqual(s.pending.openToolCalls, []);
    assert.deepEqual(s.drift, []);
  });

  test(`${version}: a thread resumed in the TUI reads as one conversation: the exec turn, then the typed one`, async () => {
    const s = await readCodexSession(codexFixture(version, "interactive-resumed"));
    assert.deepEqual(userWords(s.messages), [
      "Opening remark about lighthouse lenses.",
      "Typed follow-up about foghorns after resuming.",
    ]);
  });
}
