/**
 * Renders the IR as the events.jsonl of a GitHub Copilot CLI 1.0.102 session, in the events the binary itself
 * appends for a conversation (tests/copilot-cli-golden.test.ts compares them field by field with the captured
 * fixtures), each `{type, data, id, timestamp, parentId}` with `parentId` the event before:
 *
 *   session.start             {sessionId, version 1, producer, copilotVersion, startTime, context: {cwd}, ...}
 *   session.model_change      {source: "startup", newModel}: the model a resumed run continues on
 *   user.message              {content, messageId, interactionId, ...}: one per prompt
 *   assistant.turn_start/end  around each model call of a prompt (`turnId` counts them from "0")
 *   assistant.message         {messageId, content, toolRequests, reasoningText, model, ...}: one per model call
 *   tool.execution_start      {toolCallId, toolName, arguments}: each call, right after the message making it
 *   tool.execution_complete   {toolCallId, success, result: {content}} or {success: false, error: {message}}
 *
 * What the binary adds of its own running is left out: `system.message` (a resumed run sends its own system
 * prompt), `session.usage_record`, `session.shutdown`, `transformedContent` (the prompt with a
 * `<current_datetime>` block; without it a resumed run sends `content`, checked on the binary), tool telemetry.
 *
 * A call left without a result is left as the binary leaves a call it was killed in (its execution_start and no
 * complete): on resume Copilot records a failed result of its own for it, code `interrupted`, and sends that to
 * the model (checked on the binary). A call the conversion closed (INTERRUPTED_RESULT) is written as that
 * failed result, `error.code` `interrupted`.
 *
 * The handshake is a user message whose `transformedContent` (what the model is sent) is the handshake, and
 * whose `content` (what the timeline shows, and what names the session) is one short line.
 */
import type { Block, Message, ToolCallBlock, ToolResultBlock } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { newUuid } from "../../ids.ts";
import { INTERRUPTED_RESULT, isHandshake } from "../../handshake/handshake.ts";
import { reasoningAsText } from "../../ir/reasoning.ts";
import { isObject } from "../../io/json.ts";
import { compactionOf } from "../../ir/compacted.ts";

/** What the timeline shows in place of the handshake (the model is sent all of it). */
export const HANDSHAKE_DISPLAY = "[session-bridge: notes for the model about this handoff]";

/** The error code Copilot gives a call that had no result when a session resumed. */
export const INTERRUPTED_CODE = "interrupted";

/** What the events take from the target rather than from the session. */
export interface EncodeSettings {
  /** The Copilot CLI version whose events these are (`session.start`'s copilotVersion). */
  version: string;
  /** The model every assistant message and the startup model change name, if one is known. */
  modelFor(message: Message): string | undefined;
  /** The model the session continues on (`session.model_change`), if one is known. */
  model?: string;
}

/** One prompt and the answer it ended with, as Copilot's index (`session-store.db` turns) records it. */
export interface IndexedTurn {
  userMessage: string;
  assistantResponse: string;
  timestamp: string;
}

/** Where a handoff's complete turns go, for the index. */
export interface TurnSink {
  add(turn: IndexedTurn): void;
  /**
   * What to wait for before making more (a worker thread whose queue is full), if anything: awaited between
   * messages, so the turns made and not yet written stay few. Rejects once their write has failed.
   */
  room?(): Promise<void> | undefined;
}

/**
 * What the events said, gathered as they are written: the workspace file and the index rows are made from it
 * once the last line is out.
 */
export interface EncodedSummary {
  startTime: string;
  /** The first prompt: the name Copilot gives a session nobody named. */
  firstPrompt?: string;
  /** The last event's time. */
  updatedAt: string;
  /**
   * Where each turn goes once complete, when the index is to be written (a handoff): a spill file, as a long
   * session has too many prompts and answers to hold, or the worker thread writing them. Absent, none are
   * gathered.
   */
  turns?: TurnSink;
  done: boolean;
}

type Data = Record<string, unknown>;

export function newSummary(startTime: string): EncodedSummary {
  return { startTime, updatedAt: startTime, done: false };
}

/** The session's start as `session.start` records it: the source's start, never later than now. */
export function sessionStart(session: Pick<SessionStream, "meta">, now: Date): string {
  return new RecordClock(now, session.meta.createdAt).next(session.meta.createdAt);
}

export async function* encodeCopilot(
  session: SessionStream,
  options: RenderOptions,
  settings: EncodeSettings,
  summary: EncodedSummary = newSummary(sessionStart(session, options.now)),
): AsyncGenerator<string> {
  const clock = new RecordClock(options.now, session.meta.createdAt);
  const events = new EventChain(clock, summary);
  yield events.line("session.start", {
    sessionId: options.id,
    version: 1,
    producer: "copilot-agent",
    copilotVersion: settings.version,
    startTime: summary.startTime,
    contextTier: null,
    context: { cwd: options.cwd },
    alreadyInUse: false,
    remoteSteerable: false,
  }, summary.startTime);
  if (settings.model) {
    yield events.line("session.model_change", {
      source: "startup",
      contextTier: null,
      newModel: settings.model,
      reasoningEffort: null,
    });
  }
  const turns = new Turns(events, summary);
  // A compacted history is written first, whole, and each summary after it as Copilot's own compaction: the
  // events.jsonl keeps every event, a resumed run sends the summary and what follows. Without one, or without a
  // summary standing for it (compactionOf), a summary is a prompt as any other (the session is written as
  // it always was).
  const history = (await compactionOf(session))?.history ?? [];
  const compacts = history.length > 0;
  // Awaited only when the sink has something to wait for: an `await` per message would cost every conversion.
  for (const m of history) {
    yield* turns.message(m, settings, compacts);
    const room = summary.turns?.room?.();
    if (room) await room;
  }
  for await (const m of session.messages) {
    yield* turns.message(m, settings, compacts);
    const room = summary.turns?.room?.();
    if (room) await room;
  }
  if (options.stubOpenCalls) yield* turns.closeOpenCalls();
  yield* turns.end();
  if (options.handshake) {
    yield* turns.prompt(HANDSHAKE_DISPLAY, handshakeTime(options.now), options.handshake);
  }
  turns.indexTurn();
  summary.done = true;
}

/** The events as lines, each linked to the one before and stamped by the clock. */
class EventChain {
  private parentId: string | null = null;

  constructor(private readonly clock: RecordClock, private readonly summary: EncodedSummary) {}

  line(type: string, data: Data, source?: string): string {
    const id = newUuid();
    const timestamp = this.clock.next(source);
    const event = { type, data, id, timestamp, parentId: this.parentId };
    this.parentId = id;
    this.summary.updatedAt = timestamp;
    return JSON.stringify(event);
  }

  get now(): string {
    return this.summary.updatedAt;
  }
}

/**
 * The conversation as Copilot's turns: a prompt opens an interaction; each response is one model call of it
 * (turn_start, the message, its calls started), closed by turn_end when the next call or prompt comes.
 */
class Turns {
  private interactionId = newUuid();
  private originatingMessageId?: string;
  private turn = -1;
  private open = false;
  /** Calls made and not answered yet, by id, with the turn that made them. */
  private readonly unanswered = new Map<string, string>();
  private indexed?: IndexedTurn;
  /** The response being gathered, written once something else comes. */
  private held?: { message: Message; blocks: Block[]; model: string | undefined };

  /**
   * The messages Copilot's list holds so far (prompts, responses, results): a compaction counts them in its
   * `preCompactionMessagesLength`.
   */
  private listed = 0;

  constructor(private readonly events: EventChain, private readonly summary: EncodedSummary) {}

  /** One IR message as its events; a summary after written history is a compaction when `compacts`. */
  *message(m: Message, settings: EncodeSettings, compacts: boolean): Generator<string> {
    if (isHandshake(m)) return;
    if (m.kind === "context") return;
    for (const b of m.blocks) if (b.type === "tool_result") yield* this.result(b, m.timestamp);
    const rest = m.blocks.filter((b) => b.type !== "tool_result");
    if (!rest.length) return;
    if (m.role === "assistant" && !(compacts && m.kind === "summary")) {
      yield* this.response(m, rest, settings.modelFor(m));
      return;
    }
    if (m.role !== "user" && m.kind !== "summary") return;
    const text = promptText(rest);
    if (!text) return;
    if (compacts && m.kind === "summary" && this.listed > 0) yield* this.compaction(text, m.timestamp);
    else yield* this.prompt(text, m.timestamp);
  }

  /**
   * Copilot's own compaction, as `/compact` records it (fixture compacted, 1.0.102): a start, then the summary
   * that replaces every message before it (it counts one message fewer removed than listed, as the binary does
   * when it keeps none). What the binary records of the compaction's model call (its token accounting, the
   * `model.*` events, a checkpoint file) is its own running, not read back on resume (checked on the binary).
   */
  private *compaction(summaryContent: string, at: string | undefined): Generator<string> {
    yield* this.end();
    const compactionAttemptId = newUuid();
    yield this.events.line("session.compaction_start", { compactionAttemptId, trigger: "manual" });
    yield this.events.line("session.compaction_complete", {
      success: true,
      outcome: "applied",
      compactionAttemptId,
      preCompactionMessagesLength: this.listed,
      messagesRemoved: this.listed - 1,
      summaryContent,
      trigger: "manual",
    }, at);
    this.listed = 1;
  }

  *prompt(content: string, at: string | undefined, sent?: string): Generator<string> {
    yield* this.end();
    this.interactionId = newUuid();
    this.originatingMessageId = newUuid();
    this.turn = -1;
    this.listed++;
    yield this.events.line("user.message", {
      content,
      ...(sent ? { transformedContent: sent } : {}),
      messageId: this.originatingMessageId,
      supportedNativeDocumentMimeTypes: [],
      delivery: "idle",
      interactionId: this.interactionId,
    }, at);
    if (sent) return;
    this.summary.firstPrompt ??= content;
    this.indexTurn();
    this.indexed = { userMessage: content, assistantResponse: "", timestamp: this.events.now };
  }

  /** The turn in hand to the index: complete once the next prompt opens, or the session ends. */
  indexTurn(): void {
    if (this.indexed) this.summary.turns?.add(this.indexed);
    this.indexed = undefined;
  }

  /**
   * A model call's message: held, since a source that records a response block by block (sharing its provider
   * message id) makes it several IR messages, and Copilot records one per call.
   */
  *response(m: Message, blocks: Block[], model: string | undefined): Generator<string> {
    const held = this.held;
    if (held && !!m.providerMessageId && held.message.providerMessageId === m.providerMessageId) {
      held.blocks.push(...blocks);
      return;
    }
    yield* this.end();
    this.turn++;
    this.open = true;
    // Stamped after the event before: the response's own time is its message's.
    yield this.events.line("assistant.turn_start", {
      turnId: String(this.turn),
      interactionId: this.interactionId,
    });
    this.held = { message: m, blocks: [...blocks], model };
  }

  /** The held response written: its message, then each of its calls started. */
  private *release(): Generator<string> {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    const { message: m, blocks, model } = held;
    const turnId = String(this.turn);
    const calls = blocks.filter((b): b is ToolCallBlock => b.type === "tool_call");
    const content = blocks.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n\n");
    const reasoning = blocks.flatMap((b) => (b.type === "reasoning" && b.text.trim() ? [b.text] : []))
      .join("\n\n");
    this.listed++;
    yield this.events.line("assistant.message", {
      messageId: newUuid(),
      ...(this.originatingMessageId ? { originatingMessageId: this.originatingMessageId } : {}),
      ...(model ? { model } : {}),
      content,
      toolRequests: calls.map((c) => ({
        toolCallId: c.id,
        name: c.name,
        arguments: argumentsOf(c),
        type: "function",
      })),
      interactionId: this.interactionId,
      turnId,
      ...(reasoning ? { reasoningText: reasoning } : {}),
    }, m.timestamp);
    if (content && this.indexed) this.indexed.assistantResponse = content;
    for (const c of calls) {
      this.unanswered.set(c.id, turnId);
      yield this.events.line("tool.execution_start", {
        toolCallId: c.id,
        toolName: c.name,
        arguments: argumentsOf(c),
        turnId,
        ...(model ? { model } : {}),
      }, m.timestamp);
    }
  }

  *result(result: ToolResultBlock, at: string | undefined): Generator<string> {
    yield* this.release();
    const turnId = this.unanswered.get(result.callId);
    this.unanswered.delete(result.callId);
    const text = resultText(result);
    const interrupted = result.isError && text === INTERRUPTED_RESULT;
    this.listed++;
    yield this.events.line("tool.execution_complete", {
      toolCallId: result.callId,
      interactionId: this.interactionId,
      ...(turnId !== undefined ? { turnId } : {}),
      success: !result.isError,
      ...(result.isError
        ? { error: { message: text, ...(interrupted ? { code: INTERRUPTED_CODE } : {}) } }
        : { result: { content: text } }),
    }, at);
  }

  /** A same-harness copy's calls still open: closed as Copilot closes them on resume. */
  *closeOpenCalls(): Generator<string> {
    yield* this.release();
    for (const callId of [...this.unanswered.keys()]) {
      yield* this.result({
        type: "tool_result",
        callId,
        isError: true,
        content: [{ type: "text", text: INTERRUPTED_RESULT }],
      }, undefined);
    }
  }

  /** Closes the model call in progress, if one is. */
  *end(): Generator<string> {
    yield* this.release();
    if (!this.open) return;
    this.open = false;
    yield this.events.line("assistant.turn_end", { turnId: String(this.turn) });
  }
}

/** Copilot's tools take an object; a freeform call's text travels as its one argument. */
const argumentsOf = (call: ToolCallBlock): Record<string, unknown> =>
  isObject(call.input) ? call.input : { input: call.input };

/** What the person said, as the one string a prompt is (images have no place here). */
function promptText(blocks: Block[]): string {
  return blocks.flatMap((b) => {
    if (b.type === "text") return b.text ? [b.text] : [];
    if (b.type === "reasoning") return [reasoningAsText(b)?.text ?? ""].filter(Boolean);
    return [];
  }).join("\n\n");
}

function resultText(result: ToolResultBlock): string {
  return result.content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n");
}
