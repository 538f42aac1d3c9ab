/**
 * Goldens for the GitHub Copilot CLI writer: for conversations the real Copilot CLI 1.0.102 wrote
 * (fixtures/copilot-cli/1.0.102/, acceptance/capture-copilot-fixtures.ts), the IR is built here from the
 * fixture's events (its prompts, answers, reasoning, calls, results and times), encoded by our writer, and our
 * events are compared with the binary's, event by event and field by field, without our reader on either side.
 * What differs by design is named below, with why; everything else must be equal.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { emptySession } from "../lib/ir/session.ts";
import type { Block, Session } from "../lib/ir/schema.ts";
import { encodeCopilot, newSummary } from "../lib/harnesses/copilot-cli/encode.ts";

const FIXTURES = join(import.meta.dirname!, "..", "fixtures", "copilot-cli", "1.0.102");

interface Event {
  type: string;
  data: Record<string, unknown>;
  id: string;
  timestamp: string;
  parentId: string | null;
}

function binaryEvents(scenario: string): { cwd: string; events: Event[] } {
  const dir = join(FIXTURES, scenario, "session-state");
  const [id] = readdirSync(dir);
  const text = readFileSync(join(dir, id!, "events.jsonl"), "utf8");
  const events = text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Event);
  return { cwd: String((events[0]!.data.context as { cwd: string }).cwd), events };
}

/** The conversation of the fixture as the IR holds it (the writer's input, not its expectation). */
function irOf(events: Event[], cwd: string): Session {
  const start = events[0]!;
  const session = emptySession({
    harness: "copilot-cli",
    id: String(start.data.sessionId),
    cwd,
    models: ["gpt-4.1"],
    createdAt: String(start.data.startTime),
  });
  for (const e of events) {
    const base = { uid: e.id, parentUid: null, timestamp: e.timestamp };
    if (e.type === "session.compaction_complete") {
      // What came before is a compacted thread; the summary opens the live thread (the IR's contract).
      session.threads.push({ id: "compacted-1", kind: "compacted", messages: session.messages });
      const text = String(e.data.summaryContent);
      session.messages = [{ ...base, role: "user", kind: "summary", blocks: [{ type: "text", text }] }];
    } else if (e.type === "user.message") {
      session.messages.push({
        ...base,
        role: "user",
        kind: "turn",
        blocks: [{ type: "text", text: String(e.data.content) }],
      });
    } else if (e.type === "assistant.message") {
      const blocks: Block[] = [];
      if (e.data.reasoningText) {
        blocks.push({ type: "reasoning", text: String(e.data.reasoningText), provider: "openai" });
      }
      if (e.data.content) blocks.push({ type: "text", text: String(e.data.content) });
      for (const r of e.data.toolRequests as { toolCallId: string; name: string; arguments: unknown }[]) {
        blocks.push({ type: "tool_call", id: r.toolCallId, name: r.name, input: r.arguments });
      }
      session.messages.push({ ...base, role: "assistant", kind: "turn", model: "gpt-4.1", blocks });
    } else if (e.type === "tool.execution_complete") {
      const result = e.data.result as { content: string } | undefined;
      const error = e.data.error as { message: string } | undefined;
      session.messages.push({
        ...base,
        role: "tool",
        kind: "turn",
        blocks: [{
          type: "tool_result",
          callId: String(e.data.toolCallId),
          isError: !e.data.success,
          content: [{ type: "text", text: result?.content ?? error?.message ?? "" }],
        }],
      });
    }
  }
  return session;
}

async function ourEvents(session: Session, cwd: string): Promise<Event[]> {
  const lines: string[] = [];
  const options = {
    id: session.meta.id,
    cwd,
    now: new Date("2027-01-01T00:00:00.000Z"),
    stubOpenCalls: false,
  };
  const settings = { version: "1.0.102", model: "gpt-4.1", modelFor: () => "fake-model" };
  for await (const line of encodeCopilot(session, options, settings, newSummary(session.meta.createdAt!))) {
    lines.push(line);
  }
  return lines.map((l) => JSON.parse(l) as Event);
}

/**
 * Events that carry a time of the conversation (the IR's): theirs is the binary's. The rest (a model call's
 * start and end, a call's start) the IR has no time for: they follow the event before.
 */
const TIMED = new Set(["user.message", "assistant.message", "tool.execution_complete"]);

/** Events the binary appends of its own running, which a resumed run makes again or does without. */
const RUNNING_ONLY = new Set(["system.message", "session.usage_record", "session.shutdown"]);

/** The model call a compaction makes (its request, response and the list it sent): the binary's own running. */
const MODEL_CALL = /^model\./;

/**
 * Fields of the binary's events we leave out, by event type, and why: what the binary records of its own run
 * (telemetry, usage, the API call's id, the datetime block it adds to a prompt), which a resumed run neither
 * reads back nor sends to the model (checked on the binary: docs/harnesses/copilot-cli.md).
 */
const LEFT_OUT: Record<string, string[]> = {
  // The prompt as sent that run, with a <current_datetime> block; without it a resume sends `content`.
  "user.message": ["transformedContent", "turnId", "parentAgentTaskId"],
  // Telemetry of the run: whether the reply was streamed in real time, the API call's id, the TUI's labels.
  "assistant.message": ["rte", "apiCallId"],
  "tool.execution_start": ["toolTitle", "shellToolInfo"],
  "tool.execution_complete": ["model", "rte", "toolTelemetry", "shellExecution", "fileEdits"],
  // A compaction's token accounting and the model it called, measured by the binary as it ran; the checkpoint
  // file it wrote of the summary. A resume reads none of them back (it sends summaryContent).
  "session.compaction_start": [
    "model",
    "systemTokens",
    "conversationTokens",
    "toolDefinitionsTokens",
    "currentTokens",
    "tokenLimit",
  ],
  "session.compaction_complete": [
    "preCompactionTokens",
    "postCompactionTokens",
    "tokensRemoved",
    "tokenAccountingBasis",
    "behaviorModelId",
    "compactionTokensUsed",
    "systemTokens",
    "conversationTokens",
    "toolDefinitionsTokens",
    "tokenLimit",
    "checkpointNumber",
    "checkpointPath",
  ],
};

/** Fields the binary fills with ids of its own making: ours are fresh ids of the same kind. */
const FRESH_IDS = new Set(["messageId", "originatingMessageId", "interactionId", "compactionAttemptId"]);

/** Per tool request, what the TUI shows of it (its title and a summary the model's call made). */
const REQUEST_LABELS = ["intentionSummary", "toolTitle"];

/** The binary's fields in our events: a tool result's detailed diff is what the TUI shows, never the model. */
const RESULT_LEFT_OUT = ["detailedContent"];

/** Conversations typed in the TUI (the compaction is a TUI command) rather than run with `-p`. */
const TUI_STARTED = new Set(["compacted"]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function compare(scenario: string, ours: Event[], theirs: Event[]): void {
  const kept = theirs.filter((e) => !RUNNING_ONLY.has(e.type) && !MODEL_CALL.test(e.type));
  assert.deepEqual(ours.map((e) => e.type), kept.map((e) => e.type), `${scenario}: the events, in order`);
  ours.forEach((our, i) => {
    const their = kept[i]!;
    const where = `${scenario}: event ${i} (${our.type})`;
    assert.match(our.id, UUID, where);
    assert.equal(our.parentId, i === 0 ? null : ours[i - 1]!.id, `${where}: parentId is the event before`);
    if (TIMED.has(our.type)) assert.equal(our.timestamp, their.timestamp, `${where}: timestamp`);
    else if (i > 0) assert.ok(our.timestamp >= ours[i - 1]!.timestamp, `${where}: timestamp in order`);
    const expected: Record<string, unknown> = { ...their.data };
    if (our.type === "session.model_change" && TUI_STARTED.has(scenario)) {
      // A TUI start resolves its model its own way (`cause`, `source`); the exec goldens compare the words a
      // start records: here the model is what must be equal.
      assert.equal(our.data.newModel, expected.newModel, `${where}: newModel`);
      return;
    }
    for (const field of LEFT_OUT[our.type] ?? []) delete expected[field];
    if (our.type === "assistant.message") {
      expected.toolRequests = (expected.toolRequests as Record<string, unknown>[]).map((r) => {
        const request = { ...r };
        for (const label of REQUEST_LABELS) delete request[label];
        return request;
      });
    }
    if (our.type === "tool.execution_complete" && expected.result) {
      const result = { ...(expected.result as Record<string, unknown>) };
      for (const field of RESULT_LEFT_OUT) delete result[field];
      expected.result = result;
    }
    if (our.type === "tool.execution_start") expected.model = "fake-model";
    for (const field of FRESH_IDS) {
      if (field in expected) {
        assert.match(String(our.data[field]), UUID, `${where}: ${field}`);
        expected[field] = our.data[field];
      }
    }
    assert.deepEqual(our.data, expected, where);
  });
}

for (const scenario of ["exec", "exec-tools", "compacted"]) {
  test(`the writer's events for the ${scenario} conversation are the binary's, field by field`, async () => {
    const { cwd, events } = binaryEvents(scenario);
    const ours = await ourEvents(irOf(events, cwd), cwd);
    compare(scenario, ours, events);
  });
}
