// Fake OpenAI Chat Completions server for driving Hermes Agent offline.
//
// - Listens on 127.0.0.1, random free port.
// - POST /v1/chat/completions: when the body has `stream: true` (Hermes' main loop always does) the answer is
//   SSE `data:` chunks ending with `data: [DONE]`; reasoning as `delta.reasoning_content` (Hermes reads
//   `delta.reasoning_content` or `delta.reasoning`), tool calls as `delta.tool_calls`, a last chunk with
//   `usage`. Auxiliary calls (context-compression summary, title generation) are sent with `stream: false`
//   and get a plain `chat.completion` JSON object.
// - Every request body is appended to `logPath` as one JSON line `{ts, method, path, body}`.
// - Anything else (probes: /v1/models, /api/tags, /version, ...) is answered 404.
import { appendFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { listenOnLoopback, readBody } from "./loopback.ts";
import { type FakeWindow, overWindow, sendRefusal } from "./window.ts";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export interface ChatMessage {
  role: string;
  content?: Json;
  tool_calls?: Json;
  tool_call_id?: string;
  name?: string;
  [k: string]: unknown;
}

export interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: Json[];
  [k: string]: unknown;
}

export interface ToolCallSpec {
  name: string;
  /** Object (serialized with JSON.stringify) or a ready JSON string. */
  arguments: JsonObject | string;
  id?: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
}

export interface ScriptReply {
  reasoning?: string;
  content?: string;
  toolCalls?: ToolCallSpec[];
  usage?: Usage;
  finishReason?: string;
}

export interface ScriptContext {
  /** 0-based index of this POST /v1/chat/completions among all received. */
  requestIndex: number;
  /** Whether the client asked for SSE. */
  stream: boolean;
}

export type Script = (req: ChatRequest, ctx: ScriptContext) => ScriptReply;

export interface FakeChatCompletions {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Text of a message content (string or array of `{type: "text", text}` parts). */
export function contentText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p) =>
        p !== null && typeof p === "object" && !Array.isArray(p) && typeof p.text === "string" ? p.text : ""
      )
      .join("");
  }
  return "";
}

/** A short stable digest of a text, for replies that must differ per prompt without repeating it. */
export function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

interface ToolShape {
  name: string;
  argName: string;
}

/** Find the terminal/shell tool the client offers and the name of its command argument. */
export function findTerminalTool(tools: Json[] | undefined): ToolShape {
  const fns: { name: string; params: Json | undefined }[] = [];
  for (const t of tools ?? []) {
    if (t === null || typeof t !== "object" || Array.isArray(t)) continue;
    const fn = t.function;
    if (fn === null || typeof fn !== "object" || Array.isArray(fn) || typeof fn.name !== "string") continue;
    fns.push({ name: fn.name, params: fn.parameters });
  }
  const pick = fns.find((f) => f.name === "terminal") ??
    fns.find((f) => /terminal|shell|bash|exec_command/i.test(f.name));
  if (!pick) return { name: "terminal", argName: "command" };
  let argName = "command";
  const p = pick.params;
  if (p !== null && typeof p === "object" && !Array.isArray(p)) {
    const props = p.properties;
    const req = p.required;
    if (props !== null && typeof props === "object" && !Array.isArray(props) && !("command" in props)) {
      const first = Array.isArray(req) && typeof req[0] === "string" ? req[0] : Object.keys(props)[0];
      if (first) argName = first;
    }
  }
  return { name: pick.name, argName };
}

/** Human-readable text of a tool result (Hermes' terminal tool returns JSON with `output`). */
export function toolResultText(content: Json | undefined): string {
  const raw = contentText(content);
  try {
    const parsed: Json = JSON.parse(raw);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      if (typeof parsed.output === "string") return parsed.output.trim();
      if (typeof parsed.result === "string") return parsed.result.trim();
    }
  } catch {
    // not JSON
  }
  return raw.trim();
}

/** Deterministic reply that does not repeat the prompt's words. */
export function neutralReply(prompt: string, turn: number): string {
  return `ASSISTANT-REPLY: acknowledged, turn ${turn}, digest ${fnv1a(prompt)}.`;
}

/**
 * Default script, keyed on the last message:
 * - last message is a tool result → "Tool said: <result>"
 * - last user text starts with `TOOL: <cmd>` → reasoning + one call of the terminal tool
 * - non-streaming (auxiliary) request → "Fake Title <hash>" for title generation, else "AUX-SUMMARY: ..."
 *   (context-compression summary)
 * - otherwise → ASSISTANT-REPLY: <deterministic text>
 */
export const defaultScript: Script = (req, ctx) => {
  const msgs = req.messages;
  const last = msgs[msgs.length - 1];
  const userTurns = msgs.filter((m) => m.role === "user").length;
  if (!ctx.stream) {
    const all = msgs.map((m) => contentText(m.content)).join("\n");
    if (/\btitle\b/i.test(contentText(msgs[0]?.content)) && msgs.length <= 2) {
      return { content: `Fake Title ${fnv1a(all)}` };
    }
    return { content: `AUX-SUMMARY: digest ${fnv1a(all)}, ${msgs.length} messages summarized.` };
  }
  if (last?.role === "tool") {
    return { content: `Tool said: ${toolResultText(last.content)}` };
  }
  let lastUser: ChatMessage | undefined;
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i]?.role === "user") {
      lastUser = msgs[i];
      break;
    }
  }
  const text = contentText(lastUser?.content).trim();
  const m = /^TOOL:\s*([\s\S]+)$/.exec(text);
  if (m && m[1]) {
    const cmd = m[1].trim();
    const tool = findTerminalTool(req.tools);
    return {
      reasoning: `REASONING: the user wants a shell command run; calling ${tool.name}.`,
      toolCalls: [{ name: tool.name, arguments: { [tool.argName]: cmd } }],
    };
  }
  return { content: neutralReply(text, userTurns) };
};

function send404(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message: "not found", type: "invalid_request_error", code: 404 } }));
}

function defaultUsage(req: ChatRequest, reply: ScriptReply): Usage {
  const promptChars = JSON.stringify(req.messages).length;
  const prompt = Math.max(1, Math.ceil(promptChars / 4));
  const completion = Math.max(
    1,
    Math.ceil(((reply.content ?? "").length + (reply.reasoning ?? "").length) / 4),
  );
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function startFakeChatCompletions(
  /** `window`: refuse a request over it as OpenAI's API does (window.ts); none: take any. */
  opts: { logPath: string; script?: Script; model?: string; window?: FakeWindow },
): Promise<FakeChatCompletions> {
  const script = opts.script ?? defaultScript;
  let requestIndex = 0;
  let callCounter = 0;
  let respCounter = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      let parsed: Json = null;
      try {
        parsed = body === "" ? null : JSON.parse(body);
      } catch {
        parsed = body;
      }
      appendFileSync(
        opts.logPath,
        JSON.stringify({ ts: new Date().toISOString(), method: req.method, path, body: parsed }) + "\n",
      );
      if (req.method !== "POST" || !/\/chat\/completions$/.test(path)) return send404(res);
      if (
        parsed === null || typeof parsed !== "object" || Array.isArray(parsed) ||
        !Array.isArray(parsed.messages)
      ) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "bad request body", type: "invalid_request_error" } }));
        return;
      }
      const refusal = overWindow("chat-completions", body, opts.window);
      if (refusal) return sendRefusal(res, refusal);
      const chatReq = parsed as unknown as ChatRequest;
      const stream = chatReq.stream === true;
      const reply = script(chatReq, { requestIndex: requestIndex++, stream });
      const usage = reply.usage ?? defaultUsage(chatReq, reply);
      const total = usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens;
      const usageJson = {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        total_tokens: total,
      };
      const id = `chatcmpl-fake${String(++respCounter).padStart(4, "0")}`;
      const created = 1_700_000_000 + respCounter;
      const model = opts.model ?? chatReq.model ?? "fake-model";
      const toolCalls = (reply.toolCalls ?? []).map((tc, i) => ({
        index: i,
        id: tc.id ?? `call_fake${String(++callCounter).padStart(4, "0")}`,
        type: "function",
        function: {
          name: tc.name,
          arguments: typeof tc.arguments === "string" ? tc.arguments : JSON.stringify(tc.arguments),
        },
      }));
      const finish = reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");

      if (!stream) {
        const message: JsonObject = { role: "assistant", content: reply.content ?? null };
        if (reply.reasoning) message.reasoning_content = reply.reasoning;
        if (toolCalls.length > 0) message.tool_calls = toolCalls.map(({ index: _i, ...rest }) => rest);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model,
          choices: [{ index: 0, message, finish_reason: finish }],
          usage: usageJson,
        }));
        return;
      }

      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      const chunk = (delta: JsonObject, finishReason: string | null, extra?: JsonObject): void => {
        const obj: JsonObject = {
          id,
          object: "chat.completion.chunk",
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finishReason }],
          ...extra,
        };
        res.write(`data: ${JSON.stringify(obj)}\n\n`);
      };
      chunk({ role: "assistant", content: "" }, null);
      if (reply.reasoning) {
        // two pieces, to exercise accumulation
        const r = reply.reasoning;
        const cut = Math.ceil(r.length / 2);
        chunk({ reasoning_content: r.slice(0, cut) }, null);
        chunk({ reasoning_content: r.slice(cut) }, null);
      }
      if (reply.content) {
        const c = reply.content;
        const cut = Math.ceil(c.length / 2);
        chunk({ content: c.slice(0, cut) }, null);
        chunk({ content: c.slice(cut) }, null);
      }
      for (const tc of toolCalls) {
        chunk({
          tool_calls: [{
            index: tc.index,
            id: tc.id,
            type: "function",
            function: { name: tc.function.name, arguments: "" },
          }],
        }, null);
        chunk({ tool_calls: [{ index: tc.index, function: { arguments: tc.function.arguments } }] }, null);
      }
      chunk({}, finish);
      res.write(
        `data: ${
          JSON.stringify({
            id,
            object: "chat.completion.chunk",
            created,
            model,
            choices: [],
            usage: usageJson,
          })
        }\n\n`,
      );
      res.write("data: [DONE]\n\n");
      res.end();
    })().catch((err: unknown) => {
      try {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(err) } }));
      } catch {
        // headers already sent
      }
    });
  });

  return listenOnLoopback(server).then(({ port, close }) => ({
    port,
    url: `http://127.0.0.1:${port}`,
    close,
  }));
}
