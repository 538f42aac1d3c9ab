/**
 * Goldens for the Codex writer: what it writes is compared with what the real Codex 0.169.0 wrote for the same
 * conversation (fixtures captured from the binary, typed into its TUI), field by field after normalizing ids
 * and times. The conversation is taken from the real rollout with plain JSON parsing, never with our reader,
 * so a bug shared by reader and writer cannot hide here.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { emptySession } from "../lib/ir/session.ts";
import { renderRollout } from "../lib/harnesses/codex/write.ts";
import { CODEX_DEFAULTS } from "../lib/harnesses/codex/config.ts";
import type { CodexTarget } from "../lib/harnesses/codex/target.ts";
import { codex } from "../lib/harnesses/codex/index.ts";
import { codexFixture, type CodexVersion, makeCodexHome, threadRow } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

type Json = Record<string, unknown>;
const root = tempDir();
const VERSION = "0.169.0";
/** Later than every capture, so no time of the conversation is clamped to the handoff's. */
const NOW = new Date("2027-01-01T00:00:00Z");

const records = (path: string): Json[] =>
  readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Json);
const payload = (r: Json): Json => (r.payload ?? {}) as Json;
const texts = (content: unknown): string =>
  Array.isArray(content) ? content.map((c) => String((c as Json).text ?? "")).join("\n") : "";
/** What Codex injects as user or developer messages (environment, instructions): not the person's words. */
const injected = (p: Json) => p.role === "developer" || texts(p.content).trimStart().startsWith("<");

/**
 * The conversation of a real rollout as the IR a foreign reader would hand the writer: the person's words,
 * the model's text, reasoning and calls, and the tools' outputs, in order.
 */
function conversationOf(path: string): Session {
  const lines = records(path);
  const session = emptySession({
    harness: "claude-code",
    id: "golden-source",
    models: ["gpt-5.5"],
    createdAt: String(lines[0]!.timestamp),
    updatedAt: String(lines.at(-1)!.timestamp),
    cwd: "/home/user/project",
  });
  let assistant: Message | undefined;
  const push = (m: Omit<Message, "uid" | "parentUid">) => {
    const message = {
      ...m,
      uid: `m${session.messages.length}`,
      parentUid: session.messages.at(-1)?.uid ?? null,
    };
    session.messages.push(message);
    return message;
  };
  for (const r of lines) {
    if (r.type !== "response_item") continue;
    const p = payload(r);
    const at = String(r.timestamp);
    if (p.type === "message" && p.role !== "assistant") {
      assistant = undefined;
      if (!injected(p)) {
        push({
          role: "user",
          kind: "turn",
          timestamp: at,
          blocks: [{ type: "text", text: texts(p.content) }],
        });
      }
      continue;
    }
    if (p.type === "function_call_output") {
      assistant = undefined;
      push({
        role: "tool",
        kind: "turn",
        timestamp: at,
        blocks: [{
          type: "tool_result",
          callId: String(p.call_id),
          isError: false,
          content: [{ type: "text", text: String(p.output) }],
        }],
      });
      continue;
    }
    const block: Block | undefined = p.type === "message"
      ? { type: "text", text: texts(p.content) }
      : p.type === "reasoning"
      ? {
        type: "reasoning",
        provider: "openai",
        text: texts(p.summary),
        encrypted: String(p.encrypted_content),
      }
      : p.type === "function_call"
      ? {
        type: "tool_call",
        id: String(p.call_id),
        name: String(p.name),
        input: JSON.parse(String(p.arguments)),
      }
      : undefined;
    if (!block) continue;
    assistant ??= push({ role: "assistant", kind: "turn", timestamp: at, model: "gpt-5.5", blocks: [] });
    assistant.blocks.push(block);
  }
  return session;
}

/** The records the writer produces, by kind; Codex's own extras (instructions, usage, world state) left out. */
function kindOf(r: Json): string | undefined {
  const p = payload(r);
  if (r.type === "session_meta" || r.type === "turn_context") return String(r.type);
  if (r.type === "event_msg") {
    const own = ["task_started", "task_complete", "turn_aborted", "user_message", "agent_message"];
    if (own.includes(String(p.type))) return `event:${p.type}`;
    const item = (p.item ?? {}) as Json;
    if (p.type === "item_completed" && ["UserMessage", "AgentMessage"].includes(String(item.type))) {
      return `event:item_completed:${item.type}`;
    }
    return undefined;
  }
  if (r.type !== "response_item") return undefined;
  if (p.type === "message") return injected(p) ? undefined : `item:message:${p.role}`;
  return ["reasoning", "function_call", "function_call_output"].includes(String(p.type))
    ? `item:${p.type}`
    : undefined;
}

const targetOf = (version: string): CodexTarget => ({
  ...CODEX_DEFAULTS,
  modelProvider: "fake",
  model: "gpt-5.5",
  version,
  // 0.147.0 writes legacy history (no ordinals, user_message / agent_message UI events).
  paginated: version !== "0.147.0",
  evidence: "threads",
});

async function written(session: Session, id: string, version: string): Promise<Json[]> {
  const out: Json[] = [];
  for await (
    const line of renderRollout(
      session,
      { id, cwd: "/home/user/project", now: NOW, stubOpenCalls: false },
      targetOf(version),
    )
  ) {
    out.push(JSON.parse(line) as Json);
  }
  return out;
}

/** Values that differ between any two runs: ids Codex mints, times, and the fields that only repeat them. */
const VOLATILE = new Set([
  "id",
  "turn_id",
  "thread_id",
  "timestamp",
  "started_at",
  "completed_at",
  "started_at_ms",
  "completed_at_ms",
]);

/** Every field we write must be a field Codex writes in the same place, with an equal value unless volatile. */
function compareFields(ours: unknown, real: unknown, where: string, problems: string[]): void {
  if (typeof ours !== "object" || ours === null || Array.isArray(ours)) {
    if (JSON.stringify(ours) !== JSON.stringify(real)) {
      problems.push(`${where}: ${JSON.stringify(ours)} != ${JSON.stringify(real)}`);
    }
    return;
  }
  if (typeof real !== "object" || real === null || Array.isArray(real)) {
    problems.push(`${where}: an object where Codex writes ${JSON.stringify(real)}`);
    return;
  }
  for (const [key, value] of Object.entries(ours)) {
    if (!(key in real)) problems.push(`${where}.${key}: a field Codex does not write here`);
    else if (key === "content" && Array.isArray(value)) {
      compareParts(value, (real as Json)[key], `${where}.${key}`, problems);
    } else if (!VOLATILE.has(key)) compareFields(value, (real as Json)[key], `${where}.${key}`, problems);
  }
}

/**
 * Content parts: the same part types and text; Codex adds `annotations` / `logprobs` to the model's text parts,
 * which it never sends back to the model, so parts are compared on what we write.
 */
function compareParts(ours: unknown[], real: unknown, where: string, problems: string[]): void {
  if (!Array.isArray(real) || real.length !== ours.length) {
    problems.push(`${where}: ${ours.length} parts where Codex writes ${JSON.stringify(real)}`);
    return;
  }
  ours.forEach((part, i) => compareFields(part, real[i], `${where}.${i}`, problems));
}

const GOLDENS: [CodexVersion, string][] = [
  ["0.169.0", "interactive"],
  ["0.169.0", "tool-call"],
  ["0.169.0", "resumed"],
  ["0.147.0", "tool-call"],
  ["0.147.0", "resumed"],
];

for (const [version, scenario] of GOLDENS) {
  test(`a conversation handed to Codex is written as Codex ${version} wrote the same conversation (${scenario}): records in order, fields and values`, async () => {
    const path = codexFixture(version, scenario);
    const real = records(path);
    const realId = String(payload(real[0]!).id);
    const ours = await written(conversationOf(path), realId, version);
    const realKinds = real.flatMap((r) => kindOf(r) ?? []);
    const ourKinds = ours.flatMap((r) => kindOf(r) ?? []);
    assert.deepEqual(ourKinds, realKinds);
    const pairs = real.filter((r) => kindOf(r)).map((r, i) =>
      [ours.filter((o) => kindOf(o))[i]!, r] as const
    );
    const problems: string[] = [];
    for (const [o, r] of pairs) {
      const kind = kindOf(r)!;
      // The program that wrote the thread and the turn's settings are the target's own, by design: their
      // values differ, but every field we write is one Codex writes there too.
      if (kind === "session_meta" || kind === "turn_context") {
        const theirs = r.payload as Json;
        for (const key of Object.keys(o.payload as Json)) {
          if (!(key in theirs)) problems.push(`${kind}.${key}: a field Codex does not write here`);
        }
        continue;
      }
      compareFields(o.payload, r.payload, kind, problems);
    }
    assert.deepEqual(problems, []);
  });
}

test("a copied Codex thread's threads row is the row Codex itself wrote for it, field by field", async () => {
  for (const scenario of ["interactive", "interactive-interrupted", "interactive-compacted"]) {
    const home = join(root, scenario);
    makeCodexHome(home, { version: VERSION });
    const session = await codex.store.read(codexFixture(VERSION, scenario));
    const id = codex.store.newId(NOW);
    const plan = await codex.store.plan(
      session,
      { id, cwd: "/home/user/project", now: NOW, stubOpenCalls: false },
      home,
      false,
    );
    assert.equal(plan.refusal, undefined);
    await plan.commit({ force: false, backup: false, backupFolder: join(root, "bridge", "backups", "b") });
    const ours = threadRow(home, id)!;
    const real = (JSON.parse(
      readFileSync(join(codexFixture(VERSION, scenario), "..", `${scenario}.threads.json`), "utf8"),
    ) as Json[])[0]!;
    const differing = Object.keys(real).filter((k) => JSON.stringify(real[k]) !== JSON.stringify(ours[k]));
    // Codex stamps its row's times a few milliseconds off the records' own (creating the row, finishing a
    // write): equal to within a second.
    for (const time of ["created_at", "updated_at"]) {
      const ms = Math.abs(Number(ours[`${time}_ms`]) - Number(real[`${time}_ms`]));
      assert.ok(ms < 1000, `${scenario}: ${time}_ms`);
      assert.ok(Math.abs(Number(ours[time]) - Number(real[time])) <= 1, `${scenario}: ${time}`);
    }
    // The copy is a new thread, in another file, handed off now.
    assert.deepEqual(
      differing.filter((k) =>
        !["id", "rollout_path", "recency_at", "recency_at_ms"].includes(k) && !/^(created|updated)_at/.test(k)
      ),
      [],
      `${scenario}: ${
        differing.map((k) => `${k}: ${JSON.stringify(ours[k])} vs ${JSON.stringify(real[k])}`).join("; ")
      }`,
    );
  }
});
