// The fake Gemini API answers the way Gemini CLI 0.61.0 reads it (real HTTP requests against it on loopback):
// SSE chunks of whole GenerateContentResponses, thought parts, function calls, JSON-mode side calls, countTokens,
// a logged 404 for anything else.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import {
  type FakeGemini,
  fillSchema,
  type GeminiRequest,
  startFakeGemini,
} from "../lib/certify-kit/fake-servers/gemini.ts";
import { readRequestLog } from "../lib/certify-kit/request-log.ts";
import { tempDir } from "./helpers/tmp.ts";

interface Logged {
  method: string;
  path: string;
  query: string;
  body: unknown;
}

type Part = Record<string, unknown>;
interface Chunk {
  candidates: { content: { role: string; parts: Part[] }; finishReason?: string }[];
  usageMetadata?: Record<string, number>;
}

const SHELL_TOOLS = [{
  functionDeclarations: [
    {
      name: "read_file",
      parametersJsonSchema: { type: "object", properties: { file_path: { type: "string" } } },
    },
    { name: "run_shell_command", parametersJsonSchema: { type: "object", properties: { command: {} } } },
  ],
}];

function userText(text: string) {
  return { role: "user", parts: [{ text }] };
}

async function withServer(fn: (srv: FakeGemini, logPath: string) => Promise<void>): Promise<void> {
  const logPath = join(tempDir("sb-fake-gemini-"), "requests.jsonl");
  const srv = await startFakeGemini({ logPath });
  try {
    await fn(srv, logPath);
  } finally {
    await srv.close();
  }
}

function post(srv: FakeGemini, path: string, body: unknown): Promise<Response> {
  return fetch(`${srv.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": "fake" },
    body: JSON.stringify(body),
  });
}

/** The SSE body as the JSON objects of its `data:` lines, checked to be the only kind of line. */
async function sseChunks(res: Response): Promise<Chunk[]> {
  const text = await res.text();
  const events = text.split("\r\n\r\n").filter((e) => e !== "");
  for (const e of events) assert.match(e, /^data: \{.*\}$/s);
  return events.map((e) => JSON.parse(e.slice("data: ".length)) as Chunk);
}

function allParts(chunks: Chunk[]): Part[] {
  return chunks.flatMap((c) => c.candidates[0]?.content.parts ?? []);
}

const STREAM = "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse";

test("a streamed turn is SSE data lines, each a whole response, the last with finishReason and usage", async () => {
  await withServer(async (srv) => {
    const res = await post(srv, STREAM, {
      contents: [userText("<session_context/>"), userText("hello there")],
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const chunks = await sseChunks(res);
    const last = chunks[chunks.length - 1] as Chunk;
    assert.equal(last.candidates[0]?.finishReason, "STOP");
    assert.ok((last.usageMetadata?.totalTokenCount ?? 0) > 0);
    assert.ok(chunks.slice(0, -1).every((c) => c.candidates[0]?.finishReason === undefined));
    assert.ok(chunks.every((c) => c.candidates[0]?.content.role === "model"));
    const parts = allParts(chunks);
    assert.ok(parts.some((p) => p.thought === true && typeof p.text === "string"), "a thought part");
    const text = parts.filter((p) => p.thought !== true).map((p) => p.text).join("");
    assert.match(text, /^ASSISTANT-REPLY: acknowledged, turn 2, digest [0-9a-f]{8}\.$/);
  });
});

test("TOOL: <cmd> calls the shell tool the request offers with that command", async () => {
  await withServer(async (srv) => {
    const chunks = await sseChunks(
      await post(srv, STREAM, { contents: [userText("TOOL: echo fixture-out")], tools: SHELL_TOOLS }),
    );
    const calls = allParts(chunks).flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    assert.deepEqual(calls, [{
      name: "run_shell_command",
      args: { command: "echo fixture-out", description: "fixture command" },
    }]);
  });
});

test("a function response is answered with its output", async () => {
  await withServer(async (srv) => {
    const contents = [
      userText("TOOL: echo fixture-out"),
      {
        role: "model",
        parts: [{ functionCall: { id: "c1", name: "run_shell_command", args: { command: "x" } } }],
      },
      {
        role: "user",
        parts: [{
          functionResponse: { id: "c1", name: "run_shell_command", response: { output: "fixture-out\n" } },
        }],
      },
    ];
    const parts = allParts(await sseChunks(await post(srv, STREAM, { contents, tools: SHELL_TOOLS })));
    assert.equal(parts.map((p) => p.text ?? "").join(""), "Tool said: fixture-out");
  });
});

test("a subagent (offered complete_task) finishes by calling complete_task with its schema filled", async () => {
  await withServer(async (srv) => {
    const tools = [{
      functionDeclarations: [{
        name: "complete_task",
        parametersJsonSchema: {
          type: "object",
          properties: { response: { type: "string" }, success: { type: "boolean" } },
        },
      }],
    }];
    const parts = allParts(
      await sseChunks(await post(srv, STREAM, { contents: [userText("count")], tools })),
    );
    const calls = parts.flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    assert.deepEqual(calls, [{ name: "complete_task", args: { response: "FAKE", success: false } }]);
  });
});

test("THINK: <cmd> sends two thought parts, a preamble and the shell call carrying a thought signature", async () => {
  await withServer(async (srv) => {
    const chunks = await sseChunks(
      await post(srv, STREAM, { contents: [userText("THINK: echo thought-out")], tools: SHELL_TOOLS }),
    );
    const parts = allParts(chunks);
    const thoughts = parts.filter((p) => p.thought === true).map((p) => p.text);
    assert.equal(thoughts.length, 2);
    assert.match(String(thoughts[0]), /^\*\*[^*]+\*\*\n\n/, "the first has a bold subject");
    assert.doesNotMatch(String(thoughts[1]), /^\*\*/, "the second has none");
    const calls = parts.filter((p) => p.functionCall);
    assert.deepEqual(calls.map((p) => p.functionCall), [{
      name: "run_shell_command",
      args: { command: "echo thought-out", description: "fixture command" },
    }]);
    assert.match(String(calls[0]?.thoughtSignature), /^fake-signature-[0-9a-f]{8}$/);
    assert.ok(parts.some((p) => p.thought !== true && /\S/.test(String(p.text ?? ""))), "a preamble text");
    assert.ok((chunks[chunks.length - 1]?.usageMetadata?.thoughtsTokenCount ?? 0) > 0);
  });
});

test("a compression call (it asks for a <state_snapshot>) is answered with a short state snapshot", async () => {
  await withServer(async (srv) => {
    const contents = [
      userText("First line about river boats"),
      { role: "model", parts: [{ text: "ASSISTANT-REPLY: acknowledged" }] },
      userText(
        "Generate a new <state_snapshot> based on the provided history.\n\nFirst, reason in your scratchpad.",
      ),
    ];
    const body = await (await post(srv, "/v1beta/models/m:generateContent", { contents })).json() as Chunk;
    const text = String(body.candidates[0]?.content.parts[0]?.text);
    assert.match(text, /^<state_snapshot>\n[\s\S]*\n<\/state_snapshot>$/);
    assert.ok(text.length < 400, "short: the compressed history must come out smaller than the original");
  });
});

test("a JSON-mode side call gets one JSON response whose text fills the requested schema", async () => {
  await withServer(async (srv) => {
    const res = await post(srv, "/v1beta/models/gemini-3.5-flash-lite:generateContent", {
      contents: [userText("read package.json")],
      generationConfig: {
        responseMimeType: "application/json",
        responseJsonSchema: {
          type: "OBJECT",
          properties: {
            complexity_reasoning: { type: "STRING" },
            complexity_score: { type: "INTEGER" },
            next_speaker: { type: "string", enum: ["user", "model"] },
          },
        },
      },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const body = await res.json() as Chunk;
    const parts = body.candidates[0]?.content.parts ?? [];
    assert.equal(parts.length, 1);
    assert.deepEqual(JSON.parse(String(parts[0]?.text)), {
      complexity_reasoning: "FAKE",
      complexity_score: 1,
      next_speaker: "user",
    });
    assert.equal(body.candidates[0]?.finishReason, "STOP");
  });
});

test("a plain side call (the session summary) gets a short deterministic title", async () => {
  await withServer(async (srv) => {
    const request = {
      contents: [userText("Summarize the user's primary intent ... Summary (max 80 chars):")],
    };
    const first = await (await post(srv, "/v1beta/models/m:generateContent", request)).json() as Chunk;
    const again = await (await post(srv, "/v1beta/models/m:generateContent", request)).json() as Chunk;
    const title = first.candidates[0]?.content.parts[0]?.text;
    assert.match(String(title), /^Fake title [0-9a-f]{8}$/);
    assert.equal(again.candidates[0]?.content.parts[0]?.text, title);
  });
});

test("countTokens answers a token total; unknown routes get a logged Google-style 404", async () => {
  await withServer(async (srv, logPath) => {
    const counted = await post(srv, "/v1beta/models/m:countTokens", {
      contents: [userText("four words here now")],
    });
    const total = (await counted.json() as { totalTokens: number }).totalTokens;
    assert.ok(Number.isInteger(total) && total > 0);
    const missing = await fetch(`${srv.url}/v1beta/models?pageSize=50`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), {
      error: { code: 404, message: "no route /v1beta/models", status: "NOT_FOUND" },
    });
    const log = readRequestLog<Logged>(logPath);
    assert.deepEqual(log.map((l) => [l.method, l.path, l.query]), [
      ["POST", "/v1beta/models/m:countTokens", ""],
      ["GET", "/v1beta/models", "pageSize=50"],
    ]);
  });
});

test("every generate request is logged with its path, query and parsed body", async () => {
  await withServer(async (srv, logPath) => {
    const body: GeminiRequest = { contents: [userText("logged prompt")] };
    await (await post(srv, STREAM, body)).text();
    const [entry] = readRequestLog<Logged>(logPath);
    assert.equal(entry?.path, "/v1beta/models/gemini-3.8-flash:streamGenerateContent");
    assert.equal(entry?.query, "alt=sse");
    assert.deepEqual(entry?.body, body);
  });
});

test("a body without contents is refused with 400 INVALID_ARGUMENT", async () => {
  await withServer(async (srv) => {
    const res = await post(srv, STREAM, { prompt: "no contents" });
    assert.equal(res.status, 400);
    assert.equal((await res.json() as { error: { status: string } }).error.status, "INVALID_ARGUMENT");
  });
});

test("fillSchema walks nested objects and leaves arrays empty", () => {
  assert.deepEqual(
    fillSchema({
      type: "object",
      properties: { a: { type: "object", properties: { b: { type: "number" } } }, c: { type: "array" } },
    }),
    { a: { b: 1 }, c: [] },
  );
  assert.equal(fillSchema("not a schema"), null);
});
