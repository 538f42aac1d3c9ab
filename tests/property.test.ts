/**
 * Property: any well-formed conversation, rendered by a writer and read back by the same harness's reader,
 * keeps its conversation core. Sessions are generated; every registered writer is exercised.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import type { HarnessName } from "../lib/harnesses/registry.ts";
import { emptySession } from "../lib/ir/session.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { publishFile } from "../lib/io/publish.ts";
import { conversationCore } from "./helpers/ir-core.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();
const text = fc.string({ minLength: 1, maxLength: 60 }).filter((s) =>
  s.trim().length > 0 && !s.includes("<")
);

/** One exchange: a user prompt, then the assistant's reasoning, text and tool calls, each call answered. */
const exchange = fc.record({
  prompt: text,
  reasoning: fc.option(text, { nil: undefined }),
  reply: text,
  calls: fc.array(fc.record({ command: text, output: text, isError: fc.boolean() }), { maxLength: 3 }),
});

type Exchange = typeof exchange extends fc.Arbitrary<infer T> ? T : never;

function sessionFrom(harnessName: HarnessName, exchanges: Exchange[]): Session {
  const messages: Message[] = [];
  let n = 0;
  const push = (role: Message["role"], blocks: Block[]) => {
    const uid = `00000000-0000-4000-8000-${String(n++).padStart(12, "0")}`;
    messages.push({
      uid,
      parentUid: messages.at(-1)?.uid ?? null,
      role,
      kind: "turn",
      blocks,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    });
  };
  for (const [i, x] of exchanges.entries()) {
    push("user", [{ type: "text", text: x.prompt }]);
    const calls = x.calls.map((c, j) => ({ ...c, id: `call_${i}_${j}` }));
    push("assistant", [
      ...(x.reasoning ? [{ type: "reasoning" as const, text: x.reasoning, provider: "other" as const }] : []),
      ...calls.map((c) => ({
        type: "tool_call" as const,
        id: c.id,
        name: "Bash",
        input: { command: c.command },
      })),
    ]);
    if (calls.length) {
      push(
        "user",
        calls.map((c) => ({
          type: "tool_result" as const,
          callId: c.id,
          isError: c.isError,
          content: [{ type: "text" as const, text: c.output }],
        })),
      );
    }
    push("assistant", [{ type: "text", text: x.reply }]);
  }
  return {
    ...emptySession({
      harness: harnessName,
      id: "generated",
      cwd: "/home/user/project",
      models: ["model-a"],
    }),
    messages,
  };
}

/** A source harness other than the writer's, so the generic renderer (not the same-harness copy) is used. */
const foreignTo = (target: string): HarnessName => (target === "hermes" ? "codex" : "hermes");

for (const writer of builtinRegistry.harnesses) {
  test(`generated conversations survive the ${writer.name} writer and reader with their core intact`, async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(exchange, { minLength: 1, maxLength: 4 }), async (exchanges) => {
        const session = sessionFrom(foreignTo(writer.name), exchanges);
        const path = join(dir, `${writer.name}-${runs++}.jsonl`);
        const id = writer.store.newId(new Date());
        await publishFile(
          path,
          writer.store.render(session, {
            id,
            cwd: "/home/user/project",
            now: new Date(),
            stubOpenCalls: false,
          }),
          false,
        );
        const back = await writer.store.read(path);
        assert.deepEqual(conversationCore(back.messages), conversationCore(session.messages));
      }),
      { numRuns: 40 },
    );
  });
}
