/**
 * Goldens: what our Claude writer writes for a conversation, compared field by field with what the real
 * Claude Code 2.1.328 wrote for the same conversation (fixtures captured from the binary), after normalizing
 * ids and times. The conversation is handed to the writer as a literal IR session from another harness, and
 * the real records are read as plain JSON: our Claude reader takes no part, so a bug it shares with the
 * writer cannot hide here.
 */
import { test } from "node:test";
import { dirname, join } from "node:path";
import assert from "node:assert/strict";
import { renderClaude } from "../lib/harnesses/claude-code/render.ts";
import { emptySession } from "../lib/ir/session.ts";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { claudeFixture, FIXTURE_CWD, jsonLines } from "./helpers/fixtures.ts";

type Json = Record<string, unknown>;

/** The certified versions with captures (the pinned one and the newest the registry served). */
const GOLDEN_VERSIONS = ["2.1.328", "2.1.332"];

/**
 * The conversation records of a real transcript's main chain (user and assistant), in file order, each
 * parented to its nearest conversation ancestor (Claude Code puts attachment and system records between them).
 */
function realConversation(version: string, name: string): Json[] {
  const all = jsonLines(join(dirname(claudeFixture(name)), "..", version, `${name}.jsonl`));
  const byUuid = new Map(all.map((r) => [r.uuid, r]));
  const isConversation = (r: Json) =>
    (r.type === "user" || r.type === "assistant") && r.isSidechain !== true && r.isMeta !== true;
  const conversationParent = (r: Json): unknown => {
    let p = byUuid.get(r.parentUuid);
    while (p && !isConversation(p)) p = byUuid.get(p.parentUuid);
    return p?.uuid ?? null;
  };
  return all.filter(isConversation).map((r) => ({ ...r, parentUuid: conversationParent(r) }));
}

function message(uid: string, role: Message["role"], blocks: Block[], extra: Partial<Message> = {}): Message {
  return { uid, parentUid: null, role, kind: "turn", blocks, ...extra };
}

async function render(session: Session, version: string): Promise<Json[]> {
  const lines: string[] = [];
  const options = {
    id: "00000000-0000-4000-8000-000000000001",
    cwd: FIXTURE_CWD,
    now: new Date(),
    stubOpenCalls: false,
  };
  for await (const l of renderClaude(session, options, version)) lines.push(l);
  return lines.map((l) => JSON.parse(l) as Json);
}

/**
 * Ids and times replaced by their position: uuids by the record they name, message ids by the API message
 * they belong to. What is left must be equal.
 */
function normalize(records: Json[]): Json[] {
  const uuids = new Map<unknown, string>();
  const messageIds = new Map<unknown, string>();
  records.forEach((r, i) => uuids.set(r.uuid, `record-${i}`));
  return records.map((r) => {
    const msg = r.message as Json;
    if (msg.id !== undefined && !messageIds.has(msg.id)) messageIds.set(msg.id, `message-${messageIds.size}`);
    return {
      ...r,
      uuid: uuids.get(r.uuid),
      parentUuid: r.parentUuid === null ? null : uuids.get(r.parentUuid) ?? "outside",
      timestamp: typeof r.timestamp === "string" && Number.isFinite(Date.parse(r.timestamp))
        ? "time"
        : r.timestamp,
      sessionId: "session",
      message: { ...msg, ...(msg.id !== undefined ? { id: messageIds.get(msg.id) } : {}) },
    };
  });
}

/** Every field our record has, with the real record's value for it (the usage counts are the provider's). */
function sameFields(ours: Json, real: Json): Json {
  const pick = (from: Json, keys: string[]) => Object.fromEntries(keys.map((k) => [k, from[k]]));
  const ourMessage = ours.message as Json;
  const realMessage = real.message as Json;
  const usageKeys = Object.keys((ourMessage.usage as Json | undefined) ?? {});
  return {
    ...pick(real, Object.keys(ours).filter((k) => k !== "message")),
    message: {
      ...pick(realMessage, Object.keys(ourMessage).filter((k) => k !== "usage")),
      ...(ourMessage.usage ? { usage: pick(realMessage.usage as Json, usageKeys) } : {}),
    },
  };
}

/** Our usage counts come from the source's IR, the real ones from the fake server: compare which, not how many. */
function withoutUsageCounts(records: Json[]): Json[] {
  return records.map((r) => {
    const msg = r.message as Json;
    if (!msg.usage) return r;
    return { ...r, message: { ...msg, usage: Object.keys(msg.usage as Json).sort() } };
  });
}

function assertGolden(ours: Json[], real: Json[]) {
  const a = normalize(ours);
  const b = normalize(real);
  assert.deepEqual(a.map((r) => r.type), b.map((r) => r.type), "the same records in the same order");
  assert.deepEqual(
    withoutUsageCounts(a),
    withoutUsageCounts(a.map((r, i) => sameFields(r, b[i]!))),
  );
}

for (const version of GOLDEN_VERSIONS) {
  test(`golden: a tool turn with thinking is written as Claude Code ${version} writes it`, async () => {
    const real = realConversation(version, "thinking-tool-use");
    const [prompt, thinking, call, result, answer] = real.map((r) => (r.message as Json).content) as [
      string,
      { thinking: string; signature: string }[],
      { id: string; name: string; input: unknown }[],
      { tool_use_id: string; content: string; is_error: boolean }[],
      { text: string }[],
    ];
    const model = (real[1]!.message as Json).model as string;
    const session = emptySession({
      harness: "codex",
      id: "source",
      path: "",
      models: [model],
      cwd: FIXTURE_CWD,
    });
    session.messages = [
      message("u", "user", [{ type: "text", text: prompt }]),
      message("a1", "assistant", [{
        type: "reasoning",
        text: thinking[0]!.thinking,
        signature: thinking[0]!.signature,
        provider: "anthropic",
      }], { model, providerMessageId: "m1" }),
      message("a2", "assistant", [{
        type: "tool_call",
        id: call[0]!.id,
        name: call[0]!.name,
        input: call[0]!.input,
      }], {
        model,
        providerMessageId: "m1",
      }),
      message("t", "tool", [{
        type: "tool_result",
        callId: result[0]!.tool_use_id,
        isError: result[0]!.is_error,
        content: [{ type: "text", text: result[0]!.content }],
      }]),
      message("a3", "assistant", [{ type: "text", text: answer[0]!.text }], {
        model,
        providerMessageId: "m2",
      }),
    ];
    assertGolden(await render(session, version), real);
  });

  test(`golden: typed prompts and text answers are written as Claude Code ${version} writes them`, async () => {
    const real = realConversation(version, "resumed");
    const model = (real.find((r) => r.type === "assistant")!.message as Json).model as string;
    const session = emptySession({
      harness: "hermes",
      id: "source",
      path: "",
      models: [model],
      cwd: FIXTURE_CWD,
    });
    session.messages = real.map((r, i) => {
      const content = (r.message as Json).content;
      const text = typeof content === "string" ? content : (content as { text: string }[])[0]!.text;
      return r.type === "user"
        ? message(`m${i}`, "user", [{ type: "text", text }])
        : message(`m${i}`, "assistant", [{ type: "text", text }], { model, providerMessageId: `p${i}` });
    });
    assertGolden(await render(session, version), real);
  });
}
