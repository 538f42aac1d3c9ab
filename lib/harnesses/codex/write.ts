/**
 * Renders the IR as a Codex rollout for the installed Codex (target.ts detects it; render.ts passes it in). A Codex source is copied line by
 * line (copy.ts); any other source is rendered turn by turn, each turn as Codex writes its own:
 *
 *   event_msg task_started, turn_context, response_items (what the model reads back on resume) each followed by
 *   its UI mirror (what the TUI shows and what fills the picker), event_msg task_complete (or turn_aborted).
 *
 * The UI mirrors are `item_completed` UserMessage / AgentMessage events in paginated history and `user_message` /
 * `agent_message` events in legacy history. Response items carry no ids the source did not have.
 */
import type { Block, Message, ToolResultBlock } from "../../ir/schema.ts";
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { newUuidV7 } from "../../ids.ts";
import { INTERRUPTED_RESULT, isHandshake } from "../../handshake/handshake.ts";
import { reasoningText } from "../../ir/reasoning.ts";
import type {
  CodexEventMsgItemCompleted,
  CodexEventMsgTaskComplete,
  CodexEventMsgTaskStarted,
  CodexEventMsgTurnAborted,
  CodexResponseItemLine,
  CodexSessionMetaPayload,
  CodexTurnContextPayload,
} from "../../generated/codex/0.169.0.ts";
import type { CodexEventMsgAgentMessage, CodexEventMsgUserMessage } from "../../generated/codex/0.147.0.ts";
import { callItem, imageUrl, messageItem, outputItem, reasoningItem, textOf } from "./items.ts";
import { codexPolicies } from "./posture.ts";
import { LineWriter } from "./lines.ts";
import type { CodexTarget } from "./target.ts";
import type { JsonlLine } from "../../io/jsonl.ts";
import { copyRollout } from "./copy.ts";
import { compactionOf } from "../../ir/compacted.ts";
import { compactedLine } from "./compaction.ts";

/** What session-bridge records as the program that wrote a thread (`originator`). */
export const ORIGINATOR = "session-bridge";

type ResponseItem = CodexResponseItemLine["payload"];
type OutputText = { type: "output_text"; text: string };
const NO_CALLS: readonly string[] = [];

/** A Codex source with its file at hand is copied line by line rather than rendered from the IR. */
export function isCopy(session: SessionHead): boolean {
  return session.meta.harness === "codex" && !!session.meta.path;
}

/**
 * The session as rollout lines for the Codex the store detected (`target`). `source` is the records of a
 * Codex source's rollout (the store reads them): they are copied; without them the IR is rendered.
 */
export function renderRollout(
  session: SessionStream,
  options: RenderOptions,
  target: CodexTarget,
  source?: AsyncIterable<JsonlLine>,
): AsyncGenerator<string> {
  if (source) return copyRollout(session, options, target, source);
  return renderForeign(session, options, target);
}

/** The time the writer last gave, in whole seconds. */
const seconds = (out: LineWriter) => Math.floor(out.lastMs() / 1000);

async function* renderForeign(
  session: SessionStream,
  options: RenderOptions,
  target: CodexTarget,
): AsyncGenerator<string> {
  const out = new LineWriter(new RecordClock(options.now, session.meta.createdAt), target.paginated);
  const timestamp = out.time(session.meta.createdAt);
  const meta: CodexSessionMetaPayload = {
    id: options.id,
    timestamp,
    cwd: options.cwd,
    originator: ORIGINATOR,
    cli_version: target.version,
    source: "cli",
    thread_source: "user",
    model_provider: target.modelProvider,
    history_mode: target.paginated ? "paginated" : "legacy",
  };
  yield out.lineAt(timestamp, "session_meta", meta);
  // Outputs must answer a call in its own form, so which calls went out as custom (freeform) calls is remembered.
  const customCalls = new Set<string>();
  // A stub answers its call inside the call's own turn; a call whose message is in no turn (cut off turns ago,
  // or known only from a handshake), in the last one.
  const stubs = options.stubOpenCalls ? session.pending.openToolCalls : [];
  const callers = new Set(stubs.map((c) => c.messageUid));
  const seen = new Set<string>();
  let turn: TurnRenderer | undefined;
  const turnCallers = new Set<string>();
  /**
   * The lines a step rendered, handed on after it (a history's lines are its whole size: they are not held to its
   * end). They are yielded by a plain loop where they are due, not by `yield*` of a generator: that cost a
   * generator per message and a promise more per line.
   */
  const lines: string[] = [];
  // Looked for only when some call was left open (most sessions have none, and a turn ends every few records).
  const finish = (last: boolean) =>
    turn!.finish(
      lines,
      stubs.length
        ? stubs.filter((c) => turnCallers.has(c.messageUid) || (last && !seen.has(c.messageUid))).map((c) =>
          c.callId
        )
        : NO_CALLS,
      last && session.pending.interruptedTurn,
    );
  const render = (m: Message) => {
    if (m.kind === "context" || isHandshake(m)) return;
    if (!turn || opensTurn(m)) {
      if (turn) finish(false);
      turn = new TurnRenderer(out, options, target, m, customCalls);
      turnCallers.clear();
      turn.start(lines);
    }
    if (callers.has(m.uid)) {
      turnCallers.add(m.uid);
      seen.add(m.uid);
    }
    turn.message(lines, m);
  };
  // A compacted source keeps its history on disk, in turns before Codex's own compaction (compaction.ts).
  const compaction = await compactionOf(session);
  let at = 0;
  // The thread is rendered as it is read: a turn ends where the next one opens, or where the thread ends.
  for await (const m of session.messages) {
    if (compaction && at === 0) {
      for (const h of compaction.history) {
        render(h);
        for (const line of lines) yield line;
        lines.length = 0;
      }
      if (turn) finish(false);
      turn = undefined;
    }
    if (compaction && at++ === compaction.summaryAt) lines.push(compactedLine(out, m));
    else render(m);
    for (const line of lines) yield line;
    lines.length = 0;
  }
  if (turn) finish(true);
  if (options.handshake) {
    // The model reads it as the newest user message; with no UI mirror the TUI does not show it as a turn.
    lines.push(out.line(
      "response_item",
      messageItem("user", [{ type: "text", text: options.handshake }]),
      handshakeTime(options.now),
    ));
  }
  yield* lines;
}

/** A new turn begins wherever the person said something; tool results and replies belong to the running turn. */
function opensTurn(m: Message): boolean {
  return m.role === "user" && m.blocks.some((b) => b.type === "text" || b.type === "image");
}

class TurnRenderer {
  private readonly turnId: string;
  private lastAgentMessage: string | null = null;

  /** The turn that `first` opens. */
  constructor(
    private readonly out: LineWriter,
    private readonly options: RenderOptions,
    private readonly target: CodexTarget,
    private readonly first: Message,
    private readonly customCalls: Set<string>,
  ) {
    const at = out.sourceMs(first.timestamp);
    this.turnId = newUuidV7(Number.isFinite(at) ? at : options.now);
  }

  start(lines: string[]): void {
    const at = this.first.timestamp;
    const ts = this.out.time(at);
    const started: CodexEventMsgTaskStarted = {
      type: "task_started",
      turn_id: this.turnId,
      started_at: seconds(this.out),
    };
    lines.push(
      this.out.lineAt(ts, "event_msg", started),
      this.out.line("turn_context", this.turnContext(), at),
    );
  }

  /** The turn's end: results for its calls that never got one, then how it ended. */
  finish(lines: string[], stubbedCalls: readonly string[], interrupted: boolean): void {
    for (const callId of stubbedCalls) {
      lines.push(this.result({
        type: "tool_result",
        callId,
        isError: true,
        content: [{ type: "text", text: INTERRUPTED_RESULT }],
      }));
    }
    if (interrupted) {
      const aborted: CodexEventMsgTurnAborted = {
        type: "turn_aborted",
        turn_id: this.turnId,
        reason: "interrupted",
      };
      lines.push(this.out.line("event_msg", aborted));
    } else {
      const ts = this.out.time();
      const done: CodexEventMsgTaskComplete = {
        type: "task_complete",
        turn_id: this.turnId,
        last_agent_message: this.lastAgentMessage,
        completed_at: seconds(this.out),
      };
      lines.push(this.out.lineAt(ts, "event_msg", done));
    }
  }

  /**
   * The model is the target's own (the TUI resumes with the recorded model, and a foreign one would not route);
   * the source's permission posture is expressed by meaning in Codex's words, else the target's settings apply.
   */
  private turnContext(): CodexTurnContextPayload {
    const model = this.options.model ?? this.target.model;
    const policies = postureOf(this.options, this.target);
    return {
      turn_id: this.turnId,
      cwd: this.options.cwd,
      approval_policy: policies.approval,
      sandbox_policy: { type: policies.sandbox },
      ...(model ? { model } : {}),
      summary: "auto",
    };
  }

  message(lines: string[], m: Message): void {
    for (const b of m.blocks) if (b.type === "tool_result") lines.push(this.result(b, m.timestamp));
    if (m.role === "assistant") {
      this.assistant(lines, m);
      return;
    }
    const words = messageItem("user", m.blocks);
    if (!words) return;
    lines.push(this.item(words, m.timestamp));
    if (m.kind === "turn") lines.push(this.userMirror(m));
  }

  /**
   * Text runs become assistant messages; reasoning, calls and Codex's own raw items keep their place. A run's
   * output parts are made as its blocks are met (no text block is made for reasoning carried as text).
   */
  private assistant(lines: string[], m: Message): void {
    let run: OutputText[] = [];
    for (const block of m.blocks) {
      const own = this.ownItem(block);
      if (own) {
        if (run.length) {
          this.said(lines, run, m.timestamp);
          run = [];
        }
        lines.push(this.item(own, m.timestamp));
        continue;
      }
      const text = block.type === "reasoning"
        ? reasoningText(block)
        : block.type === "text"
        ? block.text
        : undefined;
      if (text) run.push({ type: "output_text", text });
    }
    if (run.length) this.said(lines, run, m.timestamp);
  }

  /** A run of the model's text as its message. */
  private said(lines: string[], run: OutputText[], at?: string): void {
    const text = run.length === 1 ? run[0]!.text : run.map((c) => c.text).join("\n");
    // Codex records the UI item of the model's text before the response item itself (a user's the other way).
    lines.push(
      this.agentMirror(text, at),
      this.item({ type: "message", role: "assistant", content: run }, at),
    );
  }

  /**
   * Blocks with a response item of their own: OpenAI reasoning (its encrypted payload only means something to
   * OpenAI), tool calls, and items a Codex reader kept whole. Other vendors' reasoning is carried as text.
   */
  private ownItem(block: Block): ResponseItem | undefined {
    if (block.type === "reasoning" && block.provider === "openai" && block.encrypted) {
      return reasoningItem(block);
    }
    if (block.type === "tool_call") {
      const call = callItem(block);
      if (call.type === "custom_tool_call") this.customCalls.add(block.id);
      return call;
    }
    if (block.type === "raw" && block.harness === "codex") return block.value as ResponseItem;
    return undefined;
  }

  private item(item: ResponseItem, at?: string): string {
    return this.out.line("response_item", item, at);
  }

  private result(block: ToolResultBlock, at?: string): string {
    return this.item(outputItem(block, this.customCalls.has(block.callId)), at);
  }

  private userMirror(m: Message): string {
    const text = textOf(m.blocks);
    if (!this.target.paginated) {
      const images = m.blocks.flatMap((b) => (b.type === "image" ? [imageUrl(b)] : []));
      const event: CodexEventMsgUserMessage = {
        type: "user_message",
        message: text,
        images,
        local_images: [],
      };
      return this.out.line("event_msg", event, m.timestamp);
    }
    const ts = this.out.time(m.timestamp);
    return this.out.lineAt(
      ts,
      "event_msg",
      this.completed("UserMessage", [{ type: "text", text, text_elements: [] }]),
    );
  }

  private agentMirror(text: string, at?: string): string {
    this.lastAgentMessage = text;
    if (!this.target.paginated) {
      const event: CodexEventMsgAgentMessage = { type: "agent_message", message: text };
      return this.out.line("event_msg", event, at);
    }
    const ts = this.out.time(at);
    return this.out.lineAt(ts, "event_msg", this.completed("AgentMessage", [{ type: "Text", text }]));
  }

  /**
   * A UI item at the time the writer last gave; its id is Codex's kind of id for UI items (a UUIDv7), never sent
   * to the model.
   */
  private completed(kind: string, content: Record<string, unknown>[]): CodexEventMsgItemCompleted {
    const ms = this.out.lastMs();
    return {
      type: "item_completed",
      thread_id: this.options.id,
      turn_id: this.turnId,
      item: { type: kind, id: newUuidV7(ms), content },
      started_at_ms: ms,
      completed_at_ms: ms,
    };
  }
}

/** Codex's approval and sandbox words: the source's posture by meaning when it had one, else the target's own. */
export function postureOf(
  options: RenderOptions,
  target: CodexTarget,
): { approval: string; sandbox: string } {
  return options.posture
    ? codexPolicies(options.posture)
    : { approval: target.approvalPolicy, sandbox: target.sandboxMode };
}
