// A fake Gemini API (generativelanguage v1beta) on 127.0.0.1 for driving the real Gemini CLI offline.
//
//   const srv = await startFakeGemini({ logPath: "/tmp/x/requests.jsonl" });
//   // env: GOOGLE_GEMINI_BASE_URL=srv.url GEMINI_API_KEY=<any>; settings.json security.auth.selectedType
//   // "gemini-api-key" (the base URL alone selects the "gateway" auth type, which 0.61 refuses)
//   await srv.close();
//
// Routes (the model id is the path segment before the colon; the CLI names several models in one session):
// - `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`: the main loop. SSE `data:` lines, each a whole
//   GenerateContentResponse: one chunk per thought part (`thought: true`), the text in two chunks, the function
//   calls in one, then a last chunk with `finishReason` and `usageMetadata` (a reply's thought signature rides
//   on that last chunk).
// - `POST /v1beta/models/{model}:generateContent`: side calls (the model router's complexity classifier, the
//   next-speaker check, session summaries). One JSON GenerateContentResponse. A request that asks for JSON
//   (`generationConfig.responseMimeType: "application/json"`) gets an object that fills its schema.
// - `POST /v1beta/models/{model}:countTokens`: `{totalTokens}` estimated from the request's size.
// - anything else: a Google-style JSON 404 (logged, so a new start-up call shows up in the log).
// Every request (method, path, query, parsed JSON body) is appended as one JSON line to logPath.
//
// Default script, driven by the newest content:
// - its parts hold a functionResponse → "Tool said: <output>" (the CLI wraps a shell result as {output})
// - the newest user text starts with `TOOL: <cmd>` → a thought and one call of the shell tool the request offers
// - `THINK: <cmd>` → two thoughts (one with a `**subject**`, one without), a preamble, and the shell call with
//   a thought signature on its part (as Gemini 3 models sign their first function call)
// - `AGENT: <prompt>` → a call of the subagent tool (invoke_agent) with that prompt
// - a subagent's request (it offers `complete_task`, which a subagent must call to finish) → a call of
//   complete_task with arguments that fill its schema, once the subagent has said nothing yet
// - a compression call (generateContent; `/compress` asks for a `<state_snapshot>`, then asks to check it) → a
//   short snapshot, so the compressed history comes out smaller than the original
// - another side call (generateContent; at start-up the CLI asks for a one-line summary of the previous session,
//   which becomes its title in `--list-sessions`) → "Fake title <digest>"
// - otherwise → ASSISTANT-REPLY: <deterministic text>, after a thought
import { appendFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { listenOnLoopback, readBody } from "./loopback.ts";
import { type FakeWindow, overWindow, sendRefusal } from "./window.ts";
import { fnv1a, type Json, type JsonObject, neutralReply } from "./chat-completions.ts";

// ---------- request types (only what the fake reads) ----------

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name: string; args?: JsonObject };
  functionResponse?: { id?: string; name: string; response?: JsonObject };
  [k: string]: unknown;
}

export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  parametersJsonSchema?: Json;
  parameters?: Json;
}

export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: { functionDeclarations?: GeminiFunctionDeclaration[] }[];
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: Json; responseSchema?: Json };
  [k: string]: unknown;
}

// ---------- reply types ----------

export interface FunctionCallSpec {
  name: string;
  args: JsonObject;
  /** The Gemini API leaves ids out; the CLI then makes its own. */
  id?: string;
}

export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

export interface GeminiReply {
  /** Thought summaries, each sent as its own `thought: true` part. */
  thoughts?: string[];
  text?: string;
  functionCalls?: FunctionCallSpec[];
  usage?: GeminiUsage;
  finishReason?: string;
  /** Sent on the first function call part, or on the last text part when there is no call. */
  thoughtSignature?: string;
}

export type GeminiMethod = "generateContent" | "streamGenerateContent";

export interface GeminiScriptContext {
  /** 0-based index of this generate call among all received (both methods). */
  requestIndex: number;
  method: GeminiMethod;
  model: string;
}

export type GeminiScript = (req: GeminiRequest, ctx: GeminiScriptContext) => GeminiReply;

export interface FakeGeminiOptions {
  logPath: string;
  script?: GeminiScript;
  /** Refuse a request over this window as Gemini's API does (window.ts); none: take any. */
  window?: FakeWindow;
}

export interface FakeGemini {
  port: number;
  /** The value for GOOGLE_GEMINI_BASE_URL (no trailing slash, no API version). */
  url: string;
  close(): Promise<void>;
}

// ---------- helpers for scripts ----------

/** The text of a content's parts, thoughts left out. */
export function partsText(content: GeminiContent | undefined): string {
  return (content?.parts ?? []).filter((p) => p.thought !== true).map((p) => p.text ?? "").join("");
}

/** The function responses in a content, in order. */
export function functionResponses(
  content: GeminiContent | undefined,
): NonNullable<GeminiPart["functionResponse"]>[] {
  return (content?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
}

/** The newest user content that carries typed text (not only function responses). */
export function lastUserText(req: GeminiRequest): string {
  for (let i = req.contents.length - 1; i >= 0; i--) {
    const c = req.contents[i];
    if (c?.role === "user" && functionResponses(c).length === 0) {
      // The CLI sends the session context as the first text part of the first turn: the typed text is last.
      const texts = (c.parts ?? []).filter((p) => p.thought !== true && typeof p.text === "string");
      return texts[texts.length - 1]?.text ?? "";
    }
  }
  return "";
}

function declarations(req: GeminiRequest): GeminiFunctionDeclaration[] {
  return (req.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
}

/** The name of the shell tool the request offers (`run_shell_command` in 0.61), if any. */
export function shellToolName(req: GeminiRequest): string | undefined {
  const names = declarations(req).map((d) => d.name);
  return names.find((n) => n === "run_shell_command") ?? names.find((n) => /shell|bash|command/i.test(n));
}

/** The text a function response carries: the CLI wraps tool output as `{output}` (or `{error}`). */
export function functionResponseText(response: JsonObject | undefined): string {
  if (response === undefined) return "";
  for (const key of ["output", "error", "result"]) {
    const v = response[key];
    if (typeof v === "string") return v.trim();
  }
  return JSON.stringify(response);
}

/**
 * A value of the shape a JSON schema asks for: every property, each the first enum value or a plain value of
 * its type. Schemas come from the client (hostile in principle): the walk visits each schema node once.
 */
export function fillSchema(schema: Json | undefined): Json {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] ?? null;
  const type = typeof schema.type === "string" ? schema.type.toLowerCase() : "";
  switch (type) {
    case "object": {
      const props = schema.properties;
      if (props === null || typeof props !== "object" || Array.isArray(props)) return {};
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fillSchema(v)]));
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return false;
    case "string":
      return "FAKE";
    default:
      return null;
  }
}

function completeTaskArgs(decl: GeminiFunctionDeclaration): JsonObject {
  const filled = fillSchema(decl.parametersJsonSchema ?? decl.parameters);
  return filled !== null && typeof filled === "object" && !Array.isArray(filled) ? filled : {};
}

// ---------- the default deterministic script ----------

export const defaultGeminiScript: GeminiScript = (req, ctx) => {
  if (ctx.method === "generateContent") {
    if (lastUserText(req).includes("<state_snapshot>")) {
      return {
        text:
          "<state_snapshot>\n<overall_goal>FAKE snapshot of the conversation</overall_goal>\n</state_snapshot>",
      };
    }
    return { text: `Fake title ${fnv1a(JSON.stringify(req.contents))}` };
  }
  const last = req.contents[req.contents.length - 1];
  const responses = functionResponses(last);
  const complete = declarations(req).find((d) => d.name === "complete_task");
  if (complete) {
    return {
      text: "SUBAGENT-REPLY: the job is done.",
      functionCalls: [{ name: complete.name, args: completeTaskArgs(complete) }],
    };
  }
  if (responses.length > 0) {
    return { text: `Tool said: ${responses.map((r) => functionResponseText(r.response)).join("\n")}` };
  }
  const typed = lastUserText(req).trim();
  const tool = /^TOOL:\s*([\s\S]+)$/.exec(typed);
  const shell = shellToolName(req);
  if (tool?.[1] && shell) {
    return {
      thoughts: [`**Running a command**\n\nThe user wants a shell command run; calling ${shell}.`],
      functionCalls: [{ name: shell, args: { command: tool[1].trim(), description: "fixture command" } }],
    };
  }
  const think = /^THINK:\s*([\s\S]+)$/.exec(typed);
  if (think?.[1] && shell) {
    const command = think[1].trim();
    return {
      thoughts: [
        `**Weighing the request**\n\nThe user asks for \`${command}\`; its output settles the question.`,
        "Running it through the shell is the quickest check.",
      ],
      text: "Let me check with a command.",
      functionCalls: [{ name: shell, args: { command, description: "fixture command" } }],
      thoughtSignature: `fake-signature-${fnv1a(command)}`,
    };
  }
  const agent = /^AGENT:\s*([\s\S]+)$/.exec(typed);
  if (agent?.[1] && declarations(req).some((d) => d.name === "invoke_agent")) {
    return {
      functionCalls: [{
        name: "invoke_agent",
        args: { agent_name: "generalist", prompt: agent[1].trim() },
      }],
    };
  }
  const userTurns = req.contents.filter((c) => c.role === "user" && functionResponses(c).length === 0).length;
  return {
    thoughts: ["**Answering**\n\nA plain reply is enough."],
    text: neutralReply(typed, userTurns),
  };
};

// ---------- HTTP + SSE ----------

const ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

function sendJson(res: ServerResponse, status: number, body: Json): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, code: number, status: string, message: string): void {
  sendJson(res, code, { error: { code, message, status } });
}

function estimateTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? "").length / 4));
}

function isGenerateRequest(body: Json): body is Json & GeminiRequest {
  return body !== null && typeof body === "object" && !Array.isArray(body) && Array.isArray(body.contents);
}

/** Reply parts in the order the API sends them: thoughts, text, function calls. */
function replyParts(reply: GeminiReply): JsonObject[] {
  return [
    ...(reply.thoughts ?? []).map((t): JsonObject => ({ text: t, thought: true })),
    ...(reply.text ? [{ text: reply.text }] : []),
    ...(reply.functionCalls ?? []).map((fc): JsonObject => ({
      functionCall: { ...(fc.id ? { id: fc.id } : {}), name: fc.name, args: fc.args },
    })),
  ];
}

/** The parts with the signature on the first function call part, else on the last text part (none: as is). */
function signed(parts: JsonObject[], signature: string | undefined): JsonObject[] {
  if (signature === undefined) return parts;
  const call = parts.findIndex((p) => "functionCall" in p);
  const at = call >= 0 ? call : parts.findLastIndex((p) => typeof p.text === "string" && p.thought !== true);
  return parts.map((p, i) => (i === at ? { ...p, thoughtSignature: signature } : p));
}

function usageMetadata(req: GeminiRequest, reply: GeminiReply): JsonObject {
  const u = reply.usage ?? {
    promptTokenCount: estimateTokens(req.contents),
    candidatesTokenCount: estimateTokens([reply.text ?? "", reply.functionCalls ?? []]),
    thoughtsTokenCount: reply.thoughts?.length ? estimateTokens(reply.thoughts) : 0,
  };
  const thoughts = u.thoughtsTokenCount ?? 0;
  return {
    promptTokenCount: u.promptTokenCount,
    candidatesTokenCount: u.candidatesTokenCount,
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    ...(u.cachedContentTokenCount ? { cachedContentTokenCount: u.cachedContentTokenCount } : {}),
    totalTokenCount: u.promptTokenCount + u.candidatesTokenCount + thoughts,
  };
}

/** A reply for a request that asks for JSON output: the script's text if it is JSON, else a filled schema. */
function jsonModeReply(req: GeminiRequest, reply: GeminiReply): GeminiReply {
  const text = reply.text ?? "";
  try {
    JSON.parse(text);
    return reply;
  } catch {
    const schema = req.generationConfig?.responseJsonSchema ?? req.generationConfig?.responseSchema;
    return { ...reply, thoughts: [], functionCalls: [], text: JSON.stringify(fillSchema(schema)) };
  }
}

export function startFakeGemini(opts: FakeGeminiOptions): Promise<FakeGemini> {
  const script = opts.script ?? defaultGeminiScript;
  let requestIndex = 0;
  let responseCounter = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const [path = "/", query = ""] = (req.url ?? "/").split("?", 2);
      let body: Json = null;
      try {
        body = raw === "" ? null : JSON.parse(raw);
      } catch {
        body = raw;
      }
      appendFileSync(
        opts.logPath,
        JSON.stringify({ ts: new Date().toISOString(), method: req.method, path, query, body }) + "\n",
      );
      const route = ROUTE.exec(path);
      if (req.method !== "POST" || route === null) {
        return sendError(res, 404, "NOT_FOUND", `no route ${path}`);
      }
      // Counting tokens is how a harness learns a prompt is too long: only generating refuses one.
      const refusal = route[2] === "countTokens"
        ? undefined
        : overWindow("generative-language", raw, opts.window);
      if (refusal) return sendRefusal(res, refusal);
      const model = decodeURIComponent(route[1] ?? "");
      const method = route[2];
      if (method === "countTokens") {
        return sendJson(res, 200, { totalTokens: estimateTokens(body) });
      }
      if (!isGenerateRequest(body)) return sendError(res, 400, "INVALID_ARGUMENT", "body needs contents");
      const genMethod: GeminiMethod = method === "streamGenerateContent"
        ? "streamGenerateContent"
        : "generateContent";
      let reply = script(body, { requestIndex: requestIndex++, method: genMethod, model });
      if (body.generationConfig?.responseMimeType === "application/json") reply = jsonModeReply(body, reply);
      const responseId = `fake-response-${String(++responseCounter).padStart(4, "0")}`;
      const finishReason = reply.finishReason ?? "STOP";
      const candidate = (parts: JsonObject[], finish?: string): JsonObject => ({
        content: { role: "model", parts },
        ...(finish ? { finishReason: finish } : {}),
        index: 0,
      });
      const usage = usageMetadata(body, reply);

      if (genMethod === "generateContent") {
        return sendJson(res, 200, {
          candidates: [candidate(signed(replyParts(reply), reply.thoughtSignature), finishReason)],
          usageMetadata: usage,
          modelVersion: model,
          responseId,
        });
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (parts: JsonObject[], last: boolean): void => {
        const obj: JsonObject = {
          candidates: [candidate(parts, last ? finishReason : undefined)],
          ...(last ? { usageMetadata: usage } : {}),
          modelVersion: model,
          responseId,
        };
        res.write(`data: ${JSON.stringify(obj)}\r\n\r\n`);
      };
      for (const thought of reply.thoughts ?? []) chunk([{ text: thought, thought: true }], false);
      const text = reply.text ?? "";
      // Text in two pieces, so a client that keeps only the newest chunk shows up in the fixtures.
      const cut = Math.ceil(text.length / 2);
      if (cut > 0) chunk([{ text: text.slice(0, cut) }], false);
      const rest = replyParts({ functionCalls: reply.functionCalls });
      chunk(
        signed([...(text.length > cut ? [{ text: text.slice(cut) }] : []), ...rest], reply.thoughtSignature),
        true,
      );
      res.end();
    })().catch((err: unknown) => {
      try {
        sendError(res, 500, "INTERNAL", String(err));
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
