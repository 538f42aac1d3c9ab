// A fake Anthropic Messages API on 127.0.0.1 for driving the real Claude Code binary offline.
//
// Every `POST /v1/messages` body is appended as one JSON line to `logPath`: the request body is the
// proof of what a (resumed) harness really loaded. Replies are streamed as SSE with `event:` lines,
// because Claude Code always streams and ignores events without them.
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { listenOnLoopback, readBody } from "./loopback.ts";
import { type FakeWindow, overWindow, sendRefusal } from "./window.ts";

// ---------- request types (only what the fake reads; the rest stays `unknown`) ----------

export interface AnthropicTextBlock {
  type: "text";
  text: string;
}
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content?: string | AnthropicContentBlock[];
  is_error?: boolean;
}
export interface AnthropicOtherBlock {
  type: string;
  [key: string]: unknown;
}
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicToolResultBlock | AnthropicOtherBlock;

export interface AnthropicMessage {
  /** "user" | "assistant"; Claude Code may also send "system" mid-conversation. */
  role: string;
  content: string | AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema?: unknown;
  [key: string]: unknown;
}

export interface AnthropicRequest {
  model: string;
  messages: AnthropicMessage[];
  system?: string | AnthropicContentBlock[];
  tools?: AnthropicTool[];
  stream?: boolean;
  max_tokens?: number;
  [key: string]: unknown;
}

// ---------- reply types ----------

export type ReplyBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence";

export interface FakeReply {
  content: ReplyBlock[];
  /** Defaults to "tool_use" when a tool_use block is present, else "end_turn". */
  stopReason?: StopReason;
  /** Wait this long before the first byte (to keep a turn "busy"). */
  delayMs?: number;
  /** End the socket after the content blocks, without message_delta/message_stop. */
  dropAfterContent?: boolean;
}

export type FakeScript = (req: AnthropicRequest) => FakeReply;

export interface FakeAnthropicOptions {
  logPath: string;
  script?: FakeScript;
  /** Refuse a request over this window as Anthropic's API does (window.ts); none: take any. */
  window?: FakeWindow;
}

export interface FakeAnthropic {
  port: number;
  url: string;
  /** "METHOD path" of every request that was not POST /v1/messages (to see what the binary probes). */
  otherRequests: string[];
  close(): Promise<void>;
}

// ---------- helpers for scripts ----------

/** Plain text of a content value; tool_result content is flattened too. */
export function contentText(content: string | AnthropicContentBlock[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map(blockText).filter((t) => t !== "").join("\n");
}

function blockText(block: AnthropicContentBlock): string {
  if (block.type === "text" && typeof block.text === "string") return block.text;
  if (block.type === "tool_result") return contentText((block as AnthropicToolResultBlock).content);
  return "";
}

export function lastUserMessage(req: AnthropicRequest): AnthropicMessage | undefined {
  return req.messages.findLast((m) => m.role === "user");
}

/** The last user message's tool_result blocks (empty when the user turn is typed text). */
export function toolResults(msg: AnthropicMessage | undefined): AnthropicToolResultBlock[] {
  if (msg === undefined || typeof msg.content === "string") return [];
  return msg.content.filter((b): b is AnthropicToolResultBlock => b.type === "tool_result");
}

/**
 * The user's own words in a message: Claude Code prepends `<system-reminder>` blocks and
 * other harness context to user turns, so those are skipped.
 */
export function userPromptText(msg: AnthropicMessage | undefined): string {
  if (msg === undefined) return "";
  if (typeof msg.content === "string") return stripReminders(msg.content) || msg.content;
  const raw = msg.content.filter((b): b is AnthropicTextBlock =>
    b.type === "text" && typeof b.text === "string"
  )
    .map((b) => b.text);
  const own = raw.map(stripReminders).filter((t) => t !== "");
  // Harness-only turns (e.g. a background task's notification) are all reminder: use them whole.
  return (own.length > 0 ? own : raw).join("\n");
}

const REMINDER_OPEN = "<system-reminder>";
const REMINDER_CLOSE = "</system-reminder>";

/**
 * The text without its `<system-reminder>…</system-reminder>` blocks (each to the first close after its open).
 * Found by indexOf: a lazy pattern would search to the end again from every unclosed open tag.
 */
function stripReminders(text: string): string {
  let kept = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf(REMINDER_OPEN, from);
    const close = open === -1 ? -1 : text.indexOf(REMINDER_CLOSE, open + REMINDER_OPEN.length);
    // No close after the first open left means none after any later open either.
    if (close === -1) break;
    kept += text.slice(from, open);
    from = close + REMINDER_CLOSE.length;
  }
  return (kept + text.slice(from)).trim();
}

export function shortHash(text: string, len = 12): string {
  return createHash("sha256").update(text).digest("hex").slice(0, len);
}

/** Name of the subagent tool the binary offers ("Agent" in recent builds, "Task" before). */
export function subagentToolName(req: AnthropicRequest): string | undefined {
  const names = (req.tools ?? []).map((t) => t.name);
  return names.find((n) => n === "Agent") ?? names.find((n) => n === "Task");
}

function systemText(req: AnthropicRequest): string {
  if (req.system === undefined) return "";
  return typeof req.system === "string" ? req.system : contentText(req.system);
}

// ---------- the default deterministic script ----------

/** The prompt a subagent receives; it must not contain a trigger, so the subagent just answers. */
export const SUBAGENT_PROMPT = "Subagent job: report the fixture number.";

/**
 * Deterministic behaviour keyed on the last user message:
 * tool_result -> "Tool said: ..."; `TOOL: <cmd>` -> thinking + Bash; `EDIT: <file> <old> <new>` -> Edit;
 * `AGENT:` -> subagent call;
 * a compaction request -> `<analysis>` + `<summary>COMPACT-SUMMARY: ...</summary>`;
 * anything else -> "ASSISTANT-REPLY: <digest>". Side requests (titles) get a short title.
 */
export function defaultScript(req: AnthropicRequest): FakeReply {
  const side = sideRequestReply(req);
  if (side !== undefined) return side;
  const compact = compactionReply(req);
  if (compact !== undefined) return compact;
  const last = lastUserMessage(req);
  const results = toolResults(last);
  if (results.length > 0) {
    const said = results.map((r) => contentText(r.content).trim()).join(" | ");
    return { content: [{ type: "text", text: `Tool said: ${said}` }] };
  }
  const prompt = userPromptText(last);
  const seed = `${req.messages.length}:${prompt}`;
  const toolMatch = /TOOL:\s*(.+)/.exec(prompt);
  if (toolMatch?.[1] !== undefined) return bashReply(toolMatch[1].trim(), seed);
  // Only the first `EDIT:` is read: a later one has no more words after it, so where the first fails it fails.
  const edit = prompt.indexOf("EDIT:");
  const editMatch = edit === -1
    ? null
    : /^\s*(\S+)\s+(\S+)\s+(\S+)/.exec(prompt.slice(edit + "EDIT:".length));
  if (editMatch !== null) return editReply(editMatch[1]!, editMatch[2]!, editMatch[3]!, seed);
  const agentTool = subagentToolName(req);
  if (prompt.includes("AGENT:") && agentTool !== undefined) return agentReply(agentTool, seed);
  return { content: [{ type: "text", text: digestReply(prompt) }] };
}

function bashReply(command: string, seed: string): FakeReply {
  return {
    content: [
      {
        type: "thinking",
        thinking: "The user wants a shell command run; use Bash.",
        signature: fakeSignature(seed),
      },
      {
        type: "tool_use",
        id: `toolu_fake_${shortHash(seed, 20)}`,
        name: "Bash",
        input: { command, description: "Run the requested command" },
      },
    ],
  };
}

function editReply(file: string, oldString: string, newString: string, seed: string): FakeReply {
  return {
    content: [{
      type: "tool_use",
      id: `toolu_fake_${shortHash(seed, 20)}`,
      name: "Edit",
      input: { file_path: file, old_string: oldString, new_string: newString },
    }],
  };
}

function agentReply(toolName: string, seed: string): FakeReply {
  return {
    content: [{
      type: "tool_use",
      id: `toolu_fake_${shortHash(seed, 20)}`,
      name: toolName,
      input: { description: "Fixture subagent", prompt: SUBAGENT_PROMPT, subagent_type: "general-purpose" },
    }],
  };
}

/** Derived from the prompt but never quoting it, so tests can tell prompt from reply. */
function digestReply(prompt: string): string {
  const words = prompt.split(/\s+/).filter((w) => w !== "").length;
  return `ASSISTANT-REPLY: r-${shortHash(prompt, 8)} (${words} words, ${prompt.length} chars)`;
}

/** A base64-looking string; the real API would reject it, which is fine offline. */
function fakeSignature(seed: string): string {
  return Buffer.from(`fake-signature:${shortHash(seed, 32)}`).toString("base64");
}

/**
 * Requests that are not conversation turns: Claude Code asks for session titles with a
 * system prompt about titles and no tools. Answer with the JSON it expects. Older builds (1.0.x) ask in
 * the user message instead ("Please write a 5-10 word title ...") and take the reply text as it is.
 */
function sideRequestReply(req: AnthropicRequest): FakeReply | undefined {
  if ((req.tools ?? []).length > 0) return undefined;
  if (
    /write a [\d-]+ word title for the following conversation/i.test(
      contentText(lastUserMessage(req)?.content),
    )
  ) {
    return { content: [{ type: "text", text: "Fixture session" }] };
  }
  const sys = systemText(req).toLowerCase();
  if (!sys.includes("title")) return undefined;
  return { content: [{ type: "text", text: JSON.stringify({ title: "Fixture session" }) }] };
}

/** What Claude Code puts in the last user message when it compacts (the same in 1.0.128 and 2.1.328). */
export const COMPACTION_PROMPT = "Your task is to create a detailed summary of the conversation so far";

/**
 * `/compact` sends the conversation plus a summarization prompt and keeps what is inside `<summary>` tags
 * (2.1.328 asks a second time, more firmly, when the reply has none). The summary is derived from the
 * earlier user prompts (never quoting them) and their count.
 */
function compactionReply(req: AnthropicRequest): FakeReply | undefined {
  const last = lastUserMessage(req);
  if (!contentText(last?.content).includes(COMPACTION_PROMPT)) return undefined;
  const earlier = req.messages.filter((m) => m !== last);
  const prompts = earlier.filter((m) => m.role === "user").map(userPromptText);
  const summary = `COMPACT-SUMMARY: s-${
    shortHash(prompts.join("\n"), 8)
  } (${earlier.length} earlier messages)`;
  return {
    content: [{
      type: "text",
      text:
        `<analysis>\nFixture analysis of the conversation.\n</analysis>\n\n<summary>\n${summary}\n</summary>`,
    }],
  };
}

// ---------- HTTP + SSE ----------

export function startFakeAnthropic(opts: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const script = opts.script ?? defaultScript;
  const otherRequests: string[] = [];
  let counter = 0;
  const server = createServer((req, res) => {
    readBody(req).then((body) => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      if (req.method === "POST" && path === "/v1/messages") {
        appendFileSync(opts.logPath, body.replace(/\n/g, "") + "\n");
        const refusal = overWindow("anthropic", body, opts.window);
        if (refusal) return sendRefusal(res, refusal);
        counter += 1;
        return answerMessages(res, JSON.parse(body) as AnthropicRequest, script, counter);
      }
      otherRequests.push(`${req.method} ${req.url}`);
      answerOther(res, path, body);
    }).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, apiError("api_error", String(err)));
      else res.destroy();
    });
  });
  return listenOnLoopback(server).then(({ port, close }) => ({
    port,
    url: `http://127.0.0.1:${port}`,
    otherRequests,
    close,
  }));
}

function apiError(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function answerOther(res: ServerResponse, path: string, body: string): void {
  if (path === "/v1/messages/count_tokens") {
    // A rough count is enough: the binary only uses it for context bookkeeping.
    sendJson(res, 200, { input_tokens: Math.ceil(body.length / 4) });
    return;
  }
  sendJson(res, 404, apiError("not_found_error", `fake server: no route for ${path}`));
}

async function answerMessages(
  res: ServerResponse,
  req: AnthropicRequest,
  script: FakeScript,
  n: number,
): Promise<void> {
  const reply = script(req);
  if (reply.delayMs !== undefined && reply.delayMs > 0) await sleep(reply.delayMs);
  const id = `msg_fake_${String(n).padStart(4, "0")}_${shortHash(JSON.stringify(req.messages), 8)}`;
  const message = messageEnvelope(id, req, reply);
  if (req.stream === false) {
    sendJson(res, 200, { ...message, content: reply.content, stop_reason: stopReasonOf(reply) });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": id });
  for (const [event, data] of sseEvents(message, reply)) {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
  if (reply.dropAfterContent === true) res.destroy();
  else res.end();
}

function stopReasonOf(reply: FakeReply): StopReason {
  return reply.stopReason ?? (reply.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
}

function messageEnvelope(id: string, req: AnthropicRequest, reply: FakeReply): Record<string, unknown> {
  return {
    id,
    type: "message",
    role: "assistant",
    model: req.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: Math.ceil(JSON.stringify(req.messages).length / 4),
      output_tokens: outputTokens(reply),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

function outputTokens(reply: FakeReply): number {
  return Math.max(1, Math.ceil(JSON.stringify(reply.content).length / 4));
}

type SseEvent = [string, Record<string, unknown>];

function sseEvents(message: Record<string, unknown>, reply: FakeReply): SseEvent[] {
  const events: SseEvent[] = [["message_start", { type: "message_start", message }]];
  reply.content.forEach((block, index) => events.push(...blockEvents(block, index)));
  if (reply.dropAfterContent === true) return events;
  events.push(["message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
    usage: { output_tokens: outputTokens(reply) },
  }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

function blockEvents(block: ReplyBlock, index: number): SseEvent[] {
  const delta = (d: Record<string, unknown>): SseEvent => [
    "content_block_delta",
    { type: "content_block_delta", index, delta: d },
  ];
  const stop: SseEvent = ["content_block_stop", { type: "content_block_stop", index }];
  const start = (cb: Record<string, unknown>): SseEvent => [
    "content_block_start",
    { type: "content_block_start", index, content_block: cb },
  ];
  switch (block.type) {
    case "text":
      return [start({ type: "text", text: "" }), delta({ type: "text_delta", text: block.text }), stop];
    case "thinking":
      return [
        start({ type: "thinking", thinking: "", signature: "" }),
        delta({ type: "thinking_delta", thinking: block.thinking }),
        delta({ type: "signature_delta", signature: block.signature }),
        stop,
      ];
    case "tool_use":
      return [
        start({ type: "tool_use", id: block.id, name: block.name, input: {} }),
        delta({ type: "input_json_delta", partial_json: JSON.stringify(block.input) }),
        stop,
      ];
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
