/**
 * The IR as OpenCode 1.18.33's rows, in the shape the binary itself leaves a conversation in (compared field by
 * field with rows it wrote in tests/opencode-golden.test.ts):
 *
 *   session  one row: directory, path (from the project's worktree), title, version, agent, model, token sums
 *   message  `data` {role: "user", time, agent, model: {providerID, modelID}, summary: {diffs: []}}, or
 *            {parentID (the user message it answers), role: "assistant", mode, agent, path: {cwd, root}, cost,
 *            tokens, modelID, providerID, time: {created, completed}, finish}: one per step of a response
 *   part     `data` step-start, text, reasoning, tool (a call's whole life in one part: its input and, once
 *            answered, its output or error), step-finish {reason, tokens, cost}; a user message's text and files
 *
 * A call and its result are one tool part, so the assistant message is held until its calls are answered (or
 * the next message shows they will not be). A call left without a result is written `running`, as OpenCode
 * leaves a call it was killed in: on resume it sends the model "[Tool execution was interrupted]" for it (its
 * toModelMessages, checked on the binary). A call the conversion closed (INTERRUPTED_RESULT) is written as
 * OpenCode writes a call it aborted itself: `error`, `metadata.interrupted`. The handoff's handshake is a
 * synthetic text part: sent to the model, not shown in the TUI and not taken for the title.
 *
 * Every user and assistant message names the model the target continues on: OpenCode continues a session on
 * the model of its last user message, and treats the reasoning of a message naming another model as plain text.
 */
import type { Block, Message, ToolCallBlock, ToolResultBlock, Usage } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { INTERRUPTED_RESULT, isHandshake } from "../../handshake/handshake.ts";
import { isObject } from "../../io/json.ts";
import { compactionOf } from "../../ir/compacted.ts";
import { RowIds } from "./ids.ts";
import { openCodePosture } from "./posture.ts";

/** A model as OpenCode names one: its provider's id in its configuration and the model's id there. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

/** What the rows take from the target store rather than from the session. */
export interface EncodeSettings {
  /** The project the directory belongs to (`global` outside a repository OpenCode knows). */
  projectId: string;
  /** That project's worktree (`/` for `global`): `session.path` is the directory relative to it. */
  worktree: string;
  /** The OpenCode version whose rows these are (`session.version`). */
  version: string;
  model: ModelRef;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface MessageRow {
  id: string;
  session_id: string;
  time_created: number;
  time_updated: number;
  data: JsonObject;
}

export interface PartRow {
  id: string;
  message_id: string;
  session_id: string;
  time_created: number;
  time_updated: number;
  data: JsonObject;
}

/** One message with its parts, as they are inserted (the parts after their message). */
export interface EncodedMessage {
  message: MessageRow;
  parts: PartRow[];
}

export interface SessionRow {
  id: string;
  project_id: string;
  workspace_id: null;
  parent_id: null;
  slug: string;
  directory: string;
  path: string;
  title: string;
  version: string;
  share_url: null;
  summary_additions: number;
  summary_deletions: number;
  summary_files: number;
  summary_diffs: null;
  metadata: null;
  cost: number;
  tokens_input: number;
  tokens_output: number;
  tokens_reasoning: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
  revert: null;
  permission: string | null;
  agent: string;
  model: string;
  time_created: number;
  time_updated: number;
  time_compacting: null;
  time_archived: null;
}

export interface EncodedSession {
  /** The messages, made as the thread is read (one pass, one response held at a time). Iterable once. */
  messages: AsyncIterable<EncodedMessage>;
  /** The session row, once `messages` has been read: its token sums and last time come from them. */
  session(): SessionRow;
}

/** The agent OpenCode runs a session in unless told otherwise (its primary agent). */
export const AGENT = "build";

/** The hidden agent that writes a compaction's summary. */
const COMPACTION_AGENT = "compaction";

/** What a tool call's result is when the model gets none (a call cut off); see the module's comment. */
type ToolState = JsonObject & { status: "pending" | "running" | "completed" | "error" };

interface Tally {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  last: number;
}

/**
 * The session's own permission rules: an OpenCode session's as they were; else the source's posture as rules,
 * over the user's configuration (posture.ts); none stated, none: the configuration alone applies.
 */
function sessionRules(session: SessionStream, options: RenderOptions): string | null {
  if (session.meta.harness === "opencode" && session.meta.permissionMode) return session.meta.permissionMode;
  return options.posture ? openCodePosture.words(options.posture) : null;
}

export function encodeOpenCode(
  session: SessionStream,
  options: RenderOptions,
  settings: EncodeSettings,
): EncodedSession {
  const clock = new RecordClock(options.now, session.meta.createdAt);
  const created = clock.nextMs(session.meta.createdAt);
  const tally: Tally = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, last: created };
  const writer = new RowWriter(options.id, options.cwd, settings, clock, tally);
  return {
    messages: writer.messages(session, options),
    session: () => ({
      id: options.id,
      project_id: settings.projectId,
      workspace_id: null,
      parent_id: null,
      slug: slugOf(options.id),
      directory: options.cwd,
      path: relativePath(settings.worktree, options.cwd),
      title: options.title ?? session.meta.title ?? defaultTitle(created),
      version: settings.version,
      share_url: null,
      summary_additions: 0,
      summary_deletions: 0,
      summary_files: 0,
      summary_diffs: null,
      metadata: null,
      cost: 0,
      tokens_input: tally.input,
      tokens_output: tally.output,
      tokens_reasoning: 0,
      tokens_cache_read: tally.cacheRead,
      tokens_cache_write: tally.cacheWrite,
      revert: null,
      permission: sessionRules(session, options),
      agent: AGENT,
      model: JSON.stringify({ id: settings.model.modelID, providerID: settings.model.providerID }),
      time_created: created,
      time_updated: tally.last,
      time_compacting: null,
      time_archived: null,
    }),
  };
}

/** OpenCode's title for a session it has not named yet (it names it from the first prompt when it sees this). */
export const defaultTitle = (ms: number): string => `New session - ${new Date(ms).toISOString()}`;

/** `session.path`: the directory relative to the worktree, `/`-separated, as the binary records it. */
function relativePath(worktree: string, cwd: string): string {
  const base = worktree.endsWith("/") ? worktree : `${worktree}/`;
  if (cwd === worktree) return "";
  return cwd.startsWith(base) ? cwd.slice(base.length) : cwd.replace(/^\/+/, "");
}

const SLUG_WORDS = [
  ["brave", "calm", "eager", "gentle", "happy", "jolly", "kind", "lucky", "quiet", "swift", "tidy", "witty"],
  ["badger", "comet", "falcon", "harbor", "lantern", "meadow", "otter", "panda", "river", "squid", "tiger"],
] as const;

/** A slug in OpenCode's `adjective-noun` shape, derived from the id's random letters (it only names the session). */
function slugOf(id: string): string {
  const code = (i: number) => id.charCodeAt(id.length - 1 - i);
  const [adjectives, nouns] = SLUG_WORDS;
  return `${adjectives[code(0) % adjectives.length]}-${nouns[code(1) % nouns.length]}`;
}

/** Makes the rows, holding the assistant message whose calls may still be answered. */
class RowWriter {
  private readonly ids = new RowIds();
  private held: AssistantStep | undefined;
  /** The user message the next assistant message answers. */
  private parentId: string | undefined;
  /** Every call's tool name by call id, for a result that comes after its call's message was written. */
  private readonly names = new Map<string, string>();

  constructor(
    private readonly sessionId: string,
    private readonly cwd: string,
    private readonly settings: EncodeSettings,
    private readonly clock: RecordClock,
    private readonly tally: Tally,
  ) {}

  async *messages(session: SessionStream, options: RenderOptions): AsyncGenerator<EncodedMessage> {
    // A compacted history is written first, whole, and the summary after it as OpenCode's own compaction: the
    // TUI keeps every message, a resumed run sends the summary and what follows. Without one, or without a
    // summary standing for it (compactionOf), a summary is a message as any other (the session is written
    // as it always was).
    const history = (await compactionOf(session))?.history ?? [];
    const compacts = history.length > 0;
    for (const m of history) yield* this.message(m, compacts);
    for await (const m of session.messages) yield* this.message(m, compacts);
    yield* this.release();
    if (options.handshake) {
      yield this.user([{ type: "text", text: options.handshake }], handshakeTime(options.now), true)!;
    }
  }

  private *message(m: Message, compacts: boolean): Generator<EncodedMessage> {
    if (m.kind === "context" || isHandshake(m)) return;
    if (compacts && m.kind === "summary") {
      yield* this.compaction(m);
      return;
    }
    const results = m.blocks.filter((b): b is ToolResultBlock => b.type === "tool_result");
    const rest = m.blocks.filter((b) => b.type !== "tool_result");
    const orphans = results.filter((r) => !this.held?.answer(r, this.at(m.timestamp)));
    if (orphans.length) {
      yield* this.release();
      yield this.orphanStep(orphans, m);
    }
    if (!rest.length) return;
    if (m.role === "assistant") {
      if (this.held?.continuedBy(m)) {
        this.held.add(rest, this.at(m.timestamp));
        return;
      }
      yield* this.release();
      this.held = this.step(m);
      this.held.add(rest, this.at(m.timestamp));
      return;
    }
    // OpenCode has no message of the harness's own (a system note): it is not sent to a model either.
    if (m.role === "system") return;
    yield* this.release();
    const user = this.user(rest, m.timestamp);
    if (user) yield user;
  }

  /**
   * OpenCode's own compaction, as its /compact leaves it (1.18.33: SessionCompaction.create, then process): a
   * user message holding a `compaction` part (`auto` false: asked for, not forced by an overflow), answered by
   * the summary, an assistant message of the `compaction` agent marked `summary`. On resume OpenCode sends
   * neither what came before (filterCompacted) nor anything but "What did we do so far?" and the summary.
   */
  private *compaction(m: Message): Generator<EncodedMessage> {
    yield* this.release();
    // The IR has the summary's time only: the request is stamped just after the history it summarizes.
    yield this.userRow([{ type: "compaction", auto: false }], undefined);
    const text = m.blocks.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n\n");
    const summary = this.step({ ...m, role: "assistant" }, true);
    summary.add([{ type: "text", text }], this.at(m.timestamp));
    yield summary.finish(this.at(undefined), this.tally);
  }

  /** The time of the next row, the source's own where it has one. */
  private at(source: string | undefined): number {
    const ms = this.clock.nextMs(source);
    this.tally.last = ms;
    return ms;
  }

  private *release(): Generator<EncodedMessage> {
    if (!this.held) return;
    const step = this.held;
    this.held = undefined;
    yield step.finish(this.at(undefined), this.tally);
  }

  private step(m: Message, summary = false): AssistantStep {
    for (const b of m.blocks) if (b.type === "tool_call") this.names.set(b.id, b.name);
    const created = this.at(m.timestamp);
    const id = this.ids.next("msg", created);
    // An assistant message answers a user message; a thread that starts with the model's words answers itself.
    return new AssistantStep(m, {
      id,
      cwd: this.cwd,
      sessionId: this.sessionId,
      parentId: this.parentId ?? id,
      created,
      settings: this.settings,
      ids: this.ids,
      summary,
    });
  }

  /** Results whose call was written earlier (or never): a step of their own, each call with its result. */
  private orphanStep(results: ToolResultBlock[], m: Message): EncodedMessage {
    const step = this.step({ ...m, role: "assistant", usage: undefined, providerMessageId: undefined });
    const at = this.at(m.timestamp);
    step.add(
      results.map((r): ToolCallBlock => ({
        type: "tool_call",
        id: r.callId,
        name: this.names.get(r.callId) ?? UNKNOWN_TOOL,
        input: {},
      })),
      at,
    );
    for (const r of results) step.answer(r, at);
    return step.finish(this.at(undefined), this.tally);
  }

  /** A prompt: its text and images as parts; none when it holds neither. */
  private user(blocks: Block[], source: string | undefined, synthetic = false): EncodedMessage | undefined {
    const created = this.at(source);
    const id = this.ids.next("msg", created);
    const parts = blocks.flatMap((b): JsonObject[] => {
      if (b.type === "text" && b.text) {
        return [{ type: "text", text: b.text, ...(synthetic ? { synthetic } : {}) }];
      }
      if (b.type === "image") return filePart(b);
      return [];
    });
    if (!parts.length) return undefined;
    return this.userRow(parts, source, created, id);
  }

  /** A user message of these parts, the one the next assistant message answers. */
  private userRow(
    parts: JsonObject[],
    source: string | undefined,
    created = this.at(source),
    id = this.ids.next("msg", created),
  ): EncodedMessage {
    this.parentId = id;
    const { providerID, modelID } = this.settings.model;
    return {
      message: {
        id,
        session_id: this.sessionId,
        time_created: created,
        time_updated: created,
        data: {
          role: "user",
          time: { created },
          agent: AGENT,
          model: { providerID, modelID },
          summary: { diffs: [] },
        },
      },
      parts: parts.map((data) => this.part(id, data, this.at(source))),
    };
  }

  private part(messageId: string, data: JsonObject, at: number): PartRow {
    return partRow(this.ids.next("prt", at), messageId, this.sessionId, at, data);
  }
}

const partRow = (
  id: string,
  messageId: string,
  sessionId: string,
  at: number,
  data: JsonObject,
): PartRow => ({
  id,
  message_id: messageId,
  session_id: sessionId,
  time_created: at,
  time_updated: at,
  data,
});

/** An image of a prompt as OpenCode keeps an attachment: a file part with a data URL. */
function filePart(b: Extract<Block, { type: "image" }>): JsonObject[] {
  const mime = b.mediaType ?? "image/png";
  const url = b.data ? `data:${mime};base64,${b.data}` : b.url;
  return url ? [{ type: "file", mime, filename: "image", url }] : [];
}

/** The name a result is answered under when no call of the session names its tool. */
const UNKNOWN_TOOL = "invalid";

interface StepContext {
  id: string;
  /** The session's directory, where the step ran. */
  cwd: string;
  sessionId: string;
  parentId: string;
  created: number;
  settings: EncodeSettings;
  ids: RowIds;
  /** A compaction's summary: the `compaction` agent's message, marked `summary`. */
  summary: boolean;
}

/** One assistant message: a step of a response, its parts in order, its calls answered as results arrive. */
class AssistantStep {
  private readonly parts: PartRow[] = [];
  private readonly calls = new Map<string, { part: PartRow; call: ToolCallBlock; start: number }>();
  /** Whether a result has reached one of its calls (a later record of the response is then another step). */
  private answered = false;

  constructor(private readonly first: Message, private readonly context: StepContext) {
    this.push({ type: "step-start" }, context.created);
  }

  /** Another IR message of the same response, before any of its calls was answered. */
  continuedBy(m: Message): boolean {
    return !!this.first.providerMessageId && m.providerMessageId === this.first.providerMessageId &&
      !this.answered;
  }

  add(blocks: Block[], at: number): void {
    for (const b of blocks) {
      if (b.type === "text" && b.text) {
        this.push({ type: "text", text: b.text, time: { start: at, end: at } }, at);
      } else if (b.type === "reasoning" && b.text.trim()) {
        this.push({ type: "reasoning", text: b.text, time: { start: at, end: at } }, at);
      } else if (b.type === "tool_call") {
        const input = isObject(b.input) ? b.input as JsonObject : { input: b.input as Json };
        const part = this.push({
          type: "tool",
          tool: b.name,
          callID: b.id,
          state: { status: "running", input, time: { start: at } },
        }, at);
        this.calls.set(b.id, { part, call: b, start: at });
      }
    }
  }

  /** Records `result` in its call's part, if the call is this step's. */
  answer(result: ToolResultBlock, at: number): boolean {
    const found = this.calls.get(result.callId);
    if (!found) return false;
    const state = found.part.data.state as ToolState;
    found.part.data.state = stateOf(found.call, state.input as JsonObject, result, found.start, at);
    found.part.time_updated = at;
    this.answered = true;
    return true;
  }

  finish(at: number, tally: Tally): EncodedMessage {
    const usage = this.first.usage;
    const tokens = tokensOf(usage);
    if (usage) {
      tally.input += usage.inputTokens;
      tally.output += usage.outputTokens;
      tally.cacheRead += usage.cacheReadTokens;
      tally.cacheWrite += usage.cacheWriteTokens;
    }
    const reason = this.calls.size ? "tool-calls" : "stop";
    this.push({ type: "step-finish", reason, tokens, cost: 0 }, at);
    const { id, sessionId, parentId, created, settings } = this.context;
    return {
      message: {
        id,
        session_id: sessionId,
        time_created: created,
        time_updated: at,
        data: {
          parentID: parentId,
          role: "assistant",
          mode: this.context.summary ? COMPACTION_AGENT : AGENT,
          agent: this.context.summary ? COMPACTION_AGENT : AGENT,
          ...(this.context.summary ? { summary: true } : {}),
          path: { cwd: this.context.cwd, root: settings.worktree },
          cost: 0,
          tokens,
          modelID: settings.model.modelID,
          providerID: settings.model.providerID,
          time: { created, completed: at },
          finish: reason,
        },
      },
      parts: this.parts,
    };
  }

  private push(data: JsonObject, at: number): PartRow {
    const { ids, id, sessionId } = this.context;
    const part = partRow(ids.next("prt", at), id, sessionId, at, data);
    this.parts.push(part);
    return part;
  }
}

/** The tokens of a step as OpenCode counts them: input without the cached tokens, a total over all. */
function tokensOf(usage: Usage | undefined): JsonObject {
  const u = usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return {
    total: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    input: u.inputTokens,
    output: u.outputTokens,
    reasoning: 0,
    cache: { write: u.cacheWriteTokens, read: u.cacheReadTokens },
  };
}

/** The answered state of a call: completed with its output, or error (aborted when the conversion closed it). */
function stateOf(
  call: ToolCallBlock,
  input: JsonObject,
  result: ToolResultBlock,
  start: number,
  end: number,
): ToolState {
  const text = result.content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n");
  const time = { start, end };
  if (result.isError) {
    const interrupted = text === INTERRUPTED_RESULT;
    return {
      status: "error",
      input,
      error: text,
      ...(interrupted ? { metadata: { interrupted } } : {}),
      time,
    };
  }
  return {
    status: "completed",
    input,
    output: text,
    metadata: metadataOf(call, text),
    title: titleOf(input),
    time,
  };
}

/** OpenCode's shell tool shows its output from `metadata.output`; its other tools show `output`. */
const metadataOf = (call: ToolCallBlock, text: string): JsonObject =>
  call.name === "bash" ? { output: text } : {};

/** The line the TUI shows for a call: what it ran or touched, as OpenCode's tools title themselves. */
function titleOf(input: JsonObject): string {
  for (const key of ["description", "command", "filePath", "pattern", "url", "query"]) {
    const value = input[key];
    if (typeof value === "string" && value) return value;
  }
  return "";
}
