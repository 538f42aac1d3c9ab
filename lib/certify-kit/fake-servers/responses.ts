// A fake OpenAI Responses API on 127.0.0.1 for driving the real Codex CLI offline.
//
//   const srv = await startFakeResponses({ logPath: "/tmp/x/requests.jsonl" });
//   // config.toml: [model_providers.fake] base_url = srv.url  (already ends in /v1)
//   await srv.close();
//
// `POST /v1/responses` answers with SSE: response.created, then per output item response.output_item.added,
// text/summary deltas, response.output_item.done (the whole item), then response.completed with usage.
// Every request (method, path, parsed JSON body) is appended as one JSON line to logPath.
// Other paths: `GET /v1/models` gets an OpenAI-style model list, everything else a JSON 404.
//
// Default script, driven by the newest input item:
//   function_call_output / custom_tool_call_output  -> message "Tool said: <output>"
//   user "TOOL: <cmd>"    -> reasoning (summary + encrypted_content) + function_call of the offered shell tool
//   user "PATCH: <file>"  -> custom_tool_call apply_patch adding <file> (function_call if apply_patch is a function)
//   user "PATCH-HUNKS: <file>" -> the same, updating <file> in two hunks (`alpha` to `ALPHA`, `omega` to `OMEGA`)
//   user "SEARCH: <q>"    -> web_search_call + message
//   anything else         -> message "ASSISTANT-REPLY: turn <n> noted, checksum <hex>."
// A compaction request (its instructions or last input ask for a summary/handoff) gets "COMPACT-SUMMARY: ...".
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, readBody } from "./loopback.ts";
import { type FakeWindow, overWindow, sendRefusal } from "./window.ts";
import { Buffer } from "node:buffer";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type OutputItem = JsonObject;

export interface Usage {
  input_tokens: number;
  cached_input_tokens?: number;
  output_tokens: number;
  reasoning_output_tokens?: number;
}

/** Richer answer than a bare item list: usage override, stream drop, delay, HTTP error. */
export interface ScriptReply {
  items: OutputItem[];
  usage?: Usage;
  /** Close the stream after this many items were sent (no response.completed): a dropped connection. */
  dropAfterItems?: number;
  /** Wait before each item (ms). */
  itemDelayMs?: number;
  /** Answer with this HTTP status and a JSON error body instead of SSE. */
  httpStatus?: number;
}

export interface RequestContext {
  /** 0-based count of POST /responses requests so far. */
  index: number;
  path: string;
}

export type Script = (body: JsonObject, ctx: RequestContext) => OutputItem[] | ScriptReply;

export interface FakeResponsesOptions {
  logPath: string;
  script?: Script;
  /** Model ids listed by GET /v1/models. */
  models?: string[];
  /** Refuse a request over this window as OpenAI's Responses API does (window.ts); none: take any. */
  window?: FakeWindow;
}

export interface FakeResponsesServer {
  port: number;
  /** Base URL ending in /v1, for `base_url`. */
  url: string;
  /** Number of POST /responses requests answered so far. */
  requestCount(): number;
  close(): Promise<void>;
}

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hex(seed: string, len: number): string {
  let out = "";
  let i = 0;
  while (out.length < len) out += createHash("sha256").update(`${seed}#${i++}`).digest("hex");
  return out.slice(0, len);
}

export function fakeId(prefix: string, seed: string): string {
  return `${prefix}_${hex(`${prefix}:${seed}`, 48)}`;
}

/** Text of a Responses input/output content array or string. */
export function contentText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const c of content) {
    if (isObject(c) && typeof c.text === "string") parts.push(c.text);
  }
  return parts.join("\n");
}

function inputItems(body: JsonObject): JsonObject[] {
  const input = body.input;
  if (typeof input === "string") return [{ type: "message", role: "user", content: input }];
  if (!Array.isArray(input)) return [];
  return input.filter(isObject);
}

/** Text of the newest user message that is not harness context (environment, instructions, skills). */
export function lastUserText(body: JsonObject): string {
  const items = inputItems(body);
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (!it || it.role !== "user") continue;
    const text = contentText(it.content).trim();
    if (text.startsWith("<")) continue;
    return text;
  }
  return "";
}

function userTurnCount(body: JsonObject): number {
  return inputItems(body).filter((it) =>
    it.role === "user" && !contentText(it.content).trim().startsWith("<")
  )
    .length;
}

interface ToolInfo {
  name: string;
  type: string;
  /** Argument object for a shell command. */
  args: (cmd: string) => JsonObject;
}

/** Finds the shell tool Codex offers in `tools` and how to call it. */
export function shellTool(body: JsonObject): ToolInfo | undefined {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const preferred = ["exec_command", "shell_command", "shell", "container.exec"];
  for (const want of preferred) {
    const t = tools.find((x) => x.name === want);
    if (!t) continue;
    const params = isObject(t.parameters) ? t.parameters : {};
    const props = isObject(params.properties) ? params.properties : {};
    const cmdProp = props.cmd;
    const commandProp = props.command;
    if (cmdProp !== undefined) return { name: want, type: String(t.type), args: (cmd) => ({ cmd }) };
    if (isObject(commandProp) && commandProp.type === "array") {
      return { name: want, type: String(t.type), args: (cmd) => ({ command: ["bash", "-lc", cmd] }) };
    }
    return { name: want, type: String(t.type), args: (cmd) => ({ command: cmd }) };
  }
  if (tools.some((x) => x.type === "local_shell")) {
    return { name: "local_shell", type: "local_shell", args: (cmd) => ({ command: ["bash", "-lc", cmd] }) };
  }
  return undefined;
}

function applyPatchTool(body: JsonObject): JsonObject | undefined {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  return tools.find((x) => x.name === "apply_patch");
}

export function messageItem(text: string, seed: string): OutputItem {
  return {
    type: "message",
    id: fakeId("msg", seed),
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", annotations: [], logprobs: [], text }],
  };
}

export function reasoningItem(summary: string, seed: string): OutputItem {
  const blob = Buffer.from(`fake-encrypted-reasoning:${hex(seed, 96)}`).toString("base64");
  return {
    type: "reasoning",
    id: fakeId("rs", seed),
    summary: [{ type: "summary_text", text: summary }],
    encrypted_content: `gAAAAAB${blob}`,
  };
}

function isCompactionRequest(body: JsonObject): boolean {
  const items = inputItems(body);
  const last = items[items.length - 1];
  const lastText = last ? contentText(last.content) : "";
  const probe = `${lastText}\n${
    typeof body.instructions === "string" ? body.instructions.slice(0, 400) : ""
  }`;
  return /handoff summary|CONTEXT CHECKPOINT COMPACTION|summar(y|ize) (of )?(the|this) conversation/i.test(
    probe,
  );
}

/** The deterministic default behaviour described at the top of this file. */
export const defaultScript: Script = (body) => {
  const items = inputItems(body);
  const last = items[items.length - 1];
  const turn = userTurnCount(body);
  const seedBase = `${turn}:${lastUserText(body)}`;
  if (last && (last.type === "function_call_output" || last.type === "custom_tool_call_output")) {
    const out = last.output;
    const text = typeof out === "string" ? out : isObject(out) || Array.isArray(out) ? contentText(out) : "";
    const seed = `${seedBase}:after:${String(last.call_id)}`;
    return [messageItem(`Tool said: ${text.trim().slice(0, 2000)}`, seed)];
  }
  if (isCompactionRequest(body)) {
    return [
      messageItem(
        `COMPACT-SUMMARY: ${turn} earlier turns, checksum ${hex(seedBase, 8)}.`,
        `compact:${seedBase}`,
      ),
    ];
  }
  const user = lastUserText(body);
  const tool = /^TOOL:\s*([\s\S]+)$/.exec(user);
  if (tool?.[1]) {
    const cmd = tool[1].trim();
    const shell = shellTool(body);
    const reasoning = reasoningItem("Running the requested command in the shell.", `${seedBase}:rs`);
    const callId = `call_${hex(`${seedBase}:call`, 24)}`;
    if (!shell) return [reasoning, messageItem("No shell tool was offered.", `${seedBase}:noshell`)];
    if (shell.type === "local_shell") {
      return [reasoning, {
        type: "local_shell_call",
        id: fakeId("lsh", seedBase),
        call_id: callId,
        status: "completed",
        action: { type: "exec", command: ["bash", "-lc", cmd] },
      }];
    }
    return [reasoning, {
      type: "function_call",
      id: fakeId("fc", seedBase),
      status: "completed",
      name: shell.name,
      arguments: JSON.stringify(shell.args(cmd)),
      call_id: callId,
    }];
  }
  const patch = /^PATCH(-HUNKS)?:\s*(\S+)?/.exec(user);
  if (patch) {
    const file = patch[2] ?? "patched.txt";
    const input = patch[1]
      ? `*** Begin Patch\n*** Update File: ${file}\n@@\n-alpha\n+ALPHA\n@@\n middle\n-omega\n+OMEGA\n*** End Patch\n`
      : `*** Begin Patch\n*** Add File: ${file}\n+patched line one\n+patched line two\n*** End Patch\n`;
    const callId = `call_${hex(`${seedBase}:patch`, 24)}`;
    const tool = applyPatchTool(body);
    if (tool && tool.type === "function") {
      return [{
        type: "function_call",
        id: fakeId("fc", seedBase),
        status: "completed",
        name: "apply_patch",
        arguments: JSON.stringify({ input }),
        call_id: callId,
      }];
    }
    return [{
      type: "custom_tool_call",
      id: fakeId("ctc", seedBase),
      status: "completed",
      call_id: callId,
      name: "apply_patch",
      input,
    }];
  }
  const search = /^SEARCH:\s*([\s\S]*)$/.exec(user);
  if (search) {
    const query = (search[1] ?? "").trim();
    return [
      {
        type: "web_search_call",
        id: fakeId("ws", seedBase),
        status: "completed",
        action: { type: "search", query, sources: [{ type: "url", url: "https://example.com/result" }] },
      },
      messageItem(
        `Search done: one result at https://example.com/result (checksum ${hex(seedBase, 8)}).`,
        seedBase,
      ),
    ];
  }
  return [messageItem(`ASSISTANT-REPLY: turn ${turn} noted, checksum ${hex(seedBase, 8)}.`, seedBase)];
};

function sse(res: ServerResponse, event: string, data: JsonObject): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function defaultUsage(body: JsonObject, items: OutputItem[]): Usage {
  const inLen = JSON.stringify(body.input ?? "").length +
    (typeof body.instructions === "string" ? body.instructions.length : 0);
  const outLen = JSON.stringify(items).length;
  const reasoning = items.filter((i) => i.type === "reasoning").length * 16;
  return {
    input_tokens: Math.ceil(inLen / 4),
    cached_input_tokens: 0,
    output_tokens: Math.ceil(outLen / 4) + reasoning,
    reasoning_output_tokens: reasoning,
  };
}

async function streamReply(
  res: ServerResponse,
  body: JsonObject,
  reply: ScriptReply,
  responseId: string,
  isClosed: () => boolean,
): Promise<void> {
  const model = typeof body.model === "string" ? body.model : "fake-model";
  const created = 1_700_000_000;
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const base = { id: responseId, object: "response", created_at: created, model, output: [] as Json[] };
  let seq = 0;
  sse(res, "response.created", { sequence_number: seq++, response: { ...base, status: "in_progress" } });
  sse(res, "response.in_progress", { sequence_number: seq++, response: { ...base, status: "in_progress" } });
  const done: OutputItem[] = [];
  for (let i = 0; i < reply.items.length; i++) {
    if (reply.dropAfterItems !== undefined && i >= reply.dropAfterItems) {
      res.destroy();
      return;
    }
    if (reply.itemDelayMs) await sleep(reply.itemDelayMs);
    if (isClosed()) return;
    const item = reply.items[i];
    if (!item) continue;
    const added: JsonObject = { ...item, status: "in_progress" };
    if (item.type === "message") added.content = [];
    if (item.type === "reasoning") added.summary = [];
    if (item.type === "function_call") added.arguments = "";
    if (item.type === "custom_tool_call") added.input = "";
    sse(res, "response.output_item.added", { sequence_number: seq++, output_index: i, item: added });
    if (item.type === "message") {
      const text = contentText(item.content);
      sse(res, "response.content_part.added", {
        sequence_number: seq++,
        item_id: String(item.id),
        output_index: i,
        content_index: 0,
        part: { type: "output_text", annotations: [], text: "" },
      });
      const words = text.split(/(?<= )/);
      for (const w of words) {
        sse(res, "response.output_text.delta", {
          sequence_number: seq++,
          item_id: String(item.id),
          output_index: i,
          content_index: 0,
          delta: w,
        });
      }
      sse(res, "response.output_text.done", {
        sequence_number: seq++,
        item_id: String(item.id),
        output_index: i,
        content_index: 0,
        text,
      });
    }
    if (item.type === "reasoning" && Array.isArray(item.summary)) {
      item.summary.forEach((s, si) => {
        const text = isObject(s) && typeof s.text === "string" ? s.text : "";
        sse(res, "response.reasoning_summary_part.added", {
          sequence_number: seq++,
          item_id: String(item.id),
          output_index: i,
          summary_index: si,
          part: { type: "summary_text", text: "" },
        });
        sse(res, "response.reasoning_summary_text.delta", {
          sequence_number: seq++,
          item_id: String(item.id),
          output_index: i,
          summary_index: si,
          delta: text,
        });
        sse(res, "response.reasoning_summary_text.done", {
          sequence_number: seq++,
          item_id: String(item.id),
          output_index: i,
          summary_index: si,
          text,
        });
      });
    }
    sse(res, "response.output_item.done", { sequence_number: seq++, output_index: i, item });
    done.push(item);
  }
  if (reply.dropAfterItems !== undefined && reply.dropAfterItems <= reply.items.length) {
    res.destroy();
    return;
  }
  const u = reply.usage ?? defaultUsage(body, reply.items);
  const usage: JsonObject = {
    input_tokens: u.input_tokens,
    input_tokens_details: { cached_tokens: u.cached_input_tokens ?? 0 },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_output_tokens ?? 0 },
    total_tokens: u.input_tokens + u.output_tokens,
  };
  sse(res, "response.completed", {
    sequence_number: seq++,
    response: { ...base, status: "completed", output: done, usage },
  });
  res.end();
}

export function startFakeResponses(opts: FakeResponsesOptions): Promise<FakeResponsesServer> {
  const script = opts.script ?? defaultScript;
  let count = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      try {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(err), type: "server_error" } }));
      } catch {
        // connection already gone
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    let body: Json = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text) as Json;
      } catch {
        body = text;
      }
    }
    const entry: JsonObject = {
      at: new Date().toISOString(),
      method: req.method ?? "",
      path: `${path}${url.search}`,
      body,
    };
    const enc = req.headers["content-encoding"];
    if (typeof enc === "string") entry.contentEncoding = enc;
    appendFileSync(opts.logPath, `${JSON.stringify(entry)}\n`);

    if (req.method === "POST" && /\/responses$/.test(path)) {
      const refusal = overWindow("responses", text, opts.window);
      if (refusal) return sendRefusal(res, refusal);
      if (!isObject(body)) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "body must be JSON", type: "invalid_request_error" } }));
        return;
      }
      const index = count++;
      const out = script(body, { index, path });
      const reply: ScriptReply = Array.isArray(out) ? { items: out } : out;
      if (reply.httpStatus !== undefined) {
        res.writeHead(reply.httpStatus, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "scripted failure", type: "server_error", code: null } }));
        return;
      }
      let closed = false;
      res.on("close", () => {
        closed = true;
      });
      await streamReply(res, body, reply, fakeId("resp", `${index}:${lastUserText(body)}`), () => closed);
      return;
    }
    if (req.method === "GET" && /\/models$/.test(path)) {
      const ids = opts.models ?? [];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({
        object: "list",
        data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "fake" })),
        models: [],
      }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ error: { message: `no route ${req.method ?? ""} ${path}`, type: "not_found" } }),
    );
  }

  return listenOnLoopback(server).then(({ port, close }) => ({
    port,
    url: `http://127.0.0.1:${port}/v1`,
    requestCount: () => count,
    close,
  }));
}
