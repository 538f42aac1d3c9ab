/**
 * What a model request carries, read in each target's own wire format: the tool calls by id, the outputs by the
 * id they answer, and the text of every message. An orphan is a call whose id no output answers.
 */
import type { HarnessName } from "../../lib/harnesses/registry.ts";
import { functionResponseText, type GeminiRequest } from "../../lib/certify-kit/fake-servers/gemini.ts";
import type { Body } from "./targets.ts";

export interface WireCall {
  id: string;
  name: string;
  /** Arguments as sent: a JSON string for function tools, the raw text for freeform ones. */
  args: string;
  /** The item itself, for checks on a format's own fields. */
  raw: Body;
}

export interface WireOutput {
  id: string;
  text: string;
  raw: Body;
}

export interface Exchange {
  calls: WireCall[];
  outputs: WireOutput[];
  texts: string[];
}

const isBody = (v: unknown): v is Body => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Body[] => (Array.isArray(v) ? v.filter(isBody) : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Text of a string or a list of parts with `text` (Anthropic, Responses and Chat all use this shape). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content).map((p) => (typeof p.text === "string" ? p.text : textOf(p.content))).join("\n");
}

function anthropic(body: Body): Exchange {
  const out: Exchange = { calls: [], outputs: [], texts: [] };
  for (const message of list(body.messages)) {
    if (typeof message.content === "string") out.texts.push(message.content);
    for (const block of list(message.content)) {
      if (block.type === "text") out.texts.push(str(block.text));
      if (block.type === "tool_use") {
        out.calls.push({
          id: str(block.id),
          name: str(block.name),
          args: JSON.stringify(block.input),
          raw: block,
        });
      }
      if (block.type === "tool_result") {
        out.outputs.push({ id: str(block.tool_use_id), text: textOf(block.content), raw: block });
      }
    }
  }
  return out;
}

function responses(body: Body): Exchange {
  const out: Exchange = { calls: [], outputs: [], texts: [] };
  for (const item of list(body.input)) {
    const id = str(item.call_id);
    switch (item.type) {
      case "message":
        out.texts.push(textOf(item.content));
        break;
      case "function_call":
        out.calls.push({ id, name: str(item.name), args: str(item.arguments), raw: item });
        break;
      case "custom_tool_call":
        out.calls.push({ id, name: str(item.name), args: str(item.input), raw: item });
        break;
      case "local_shell_call":
        out.calls.push({ id, name: "local_shell", args: JSON.stringify(item.action), raw: item });
        break;
      case "function_call_output":
      case "custom_tool_call_output":
        out.outputs.push({ id, text: textOf(item.output), raw: item });
        break;
    }
  }
  return out;
}

function chat(body: Body): Exchange {
  const out: Exchange = { calls: [], outputs: [], texts: [] };
  for (const message of list(body.messages)) {
    if (message.role === "tool") {
      out.outputs.push({ id: str(message.tool_call_id), text: textOf(message.content), raw: message });
      continue;
    }
    out.texts.push(textOf(message.content));
    for (const call of list(message.tool_calls)) {
      const fn = isBody(call.function) ? call.function : {};
      out.calls.push({ id: str(call.id), name: str(fn.name), args: str(fn.arguments), raw: call });
    }
  }
  return out;
}

/**
 * Gemini API `contents`: each part a text, a `functionCall` or a `functionResponse` (ids as the CLI sent them).
 * Thought summaries are not words of the conversation. Gemini CLI sends a recorded call's response twice in one
 * content on every resume (see lib/harnesses/gemini-cli/certify/sent.ts); both are kept here, as sent.
 */
function gemini(body: Body): Exchange {
  const out: Exchange = { calls: [], outputs: [], texts: [] };
  // The body the fake server logged: JSON of the API's request shape.
  const request = body as GeminiRequest;
  for (const part of (request.contents ?? []).flatMap((c) => c.parts ?? [])) {
    if (part.thought === true) continue;
    if (typeof part.text === "string") out.texts.push(part.text);
    const { functionCall: call, functionResponse: response } = part;
    if (call) {
      out.calls.push({ id: str(call.id), name: call.name, args: JSON.stringify(call.args ?? {}), raw: part });
    }
    if (response) {
      out.outputs.push({ id: str(response.id), text: functionResponseText(response.response), raw: part });
    }
  }
  return out;
}

const READERS: Record<HarnessName, (body: Body) => Exchange> = {
  "claude-code": anthropic,
  codex: responses,
  hermes: chat,
  "gemini-cli": gemini,
  // OpenCode's offline provider is @ai-sdk/openai-compatible: Chat Completions, as Hermes's.
  opencode: chat,
  // Copilot CLI's offline provider is spoken to as Chat Completions (COPILOT_PROVIDER_WIRE_API=completions).
  "copilot-cli": chat,
  // Pi's offline provider is its `openai-completions` API: Chat Completions too.
  pi: chat,
};

export function exchangeOf(target: HarnessName, body: Body | undefined): Exchange {
  return body ? READERS[target](body) : { calls: [], outputs: [], texts: [] };
}

/** Calls no output answers, and outputs that answer no call. */
export function unpaired(ex: Exchange): { calls: WireCall[]; outputs: WireOutput[] } {
  const answered = new Set(ex.outputs.map((o) => o.id));
  const called = new Set(ex.calls.map((c) => c.id));
  return {
    calls: ex.calls.filter((c) => !answered.has(c.id)),
    outputs: ex.outputs.filter((o) => !called.has(o.id)),
  };
}
