/**
 * The summary a fitted session starts with, made without a model and the same every time for the same
 * messages: every prompt the user typed (a huge one trimmed, with a marker saying how much), the assistant's
 * conclusion of each turn (its last text), each tool call as one line (tool, target, outcome), the files
 * touched, what was pending and what earlier handoffs said. Tool outputs and reasoning are what it leaves out.
 */
import type { Block, Message, Pending, ToolCallBlock, ToolResultBlock } from "../ir/schema.ts";
import { isHandshake } from "../handshake/handshake.ts";
import { FIT_SUMMARY_HEADER } from "./marker.ts";
import { isPrompt } from "./turns.ts";

/** How long each part may be, in characters, before it is trimmed (a summary's lines stay lines). */
export interface SummaryLimits {
  prompt: number;
  conclusion: number;
  line: number;
}

export const SUMMARY_LIMITS: SummaryLimits = { prompt: 4_000, conclusion: 1_500, line: 160 };

/** Where the summary says it was made for, and what it stands for. */
export interface SummaryContext {
  model: string;
  window: number;
  pending: Pending;
}

/** `text` cut to `max` characters, the cut marked with how much was left out. */
export function trimmed(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)} […${text.length - max} characters left out]`;
}

/** The first line of `text`, cut to `max`. */
const oneLine = (text: string, max: number) => trimmed(text.trim().split("\n", 1)[0] ?? "", max);

const textOf = (blocks: readonly Block[]) =>
  blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n").trim();

/** The keys tools name a file or a command by, in the order one is taken as the call's target. */
const TARGET_KEYS = [
  "file_path",
  "filePath",
  "path",
  "absolute_path",
  "notebook_path",
  "command",
  "cmd",
  "pattern",
];
const FILE_KEYS = new Set(["file_path", "filePath", "path", "absolute_path", "notebook_path"]);
/** apply_patch's grammar names each file it touches on a line of its own. */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

function callTarget(call: ToolCallBlock): string {
  const input = call.input;
  if (typeof input === "string") return input;
  if (input === null || typeof input !== "object") return "";
  const fields = input as Record<string, unknown>;
  for (const key of TARGET_KEYS) {
    const value = fields[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(" ");
  }
  return JSON.stringify(input) ?? "";
}

function filesOf(call: ToolCallBlock, into: Set<string>): void {
  const input = call.input;
  const patch = typeof input === "string"
    ? input
    : input !== null && typeof input === "object"
    ? Object.entries(input as Record<string, unknown>).flatMap(([key, value]) => {
      if (typeof value !== "string") return [];
      if (FILE_KEYS.has(key)) into.add(value);
      return key === "input" || key === "patch" ? [value] : [];
    }).join("\n")
    : "";
  for (const m of patch.matchAll(PATCH_FILE)) into.add(m[1]!.trim());
}

function outcome(result: ToolResultBlock | undefined, limits: SummaryLimits): string {
  if (!result) return "no result";
  const first = oneLine(textOf(result.content), limits.line);
  return `${result.isError ? "failed" : "ok"}${first ? `: ${first}` : ""}`;
}

/** The summary's text for `messages` (the ones fitted away), in order. */
export function summaryText(
  messages: readonly Message[],
  context: SummaryContext,
  limits = SUMMARY_LIMITS,
): string {
  const results = new Map<string, ToolResultBlock>();
  for (const m of messages) for (const b of m.blocks) if (b.type === "tool_result") results.set(b.callId, b);
  const files = new Set<string>();
  const handshakes: string[] = [];
  const turns: string[][] = [];
  let turn: string[] | undefined;
  let conclusion = "";
  const closeTurn = () => {
    if (turn && conclusion) turn.push(`Assistant concluded: ${trimmed(conclusion, limits.conclusion)}`);
    conclusion = "";
  };
  for (const m of messages) {
    if (isHandshake(m)) {
      handshakes.push(trimmed(textOf(m.blocks), limits.conclusion));
      continue;
    }
    if (isPrompt(m)) {
      closeTurn();
      turn = [`User: ${trimmed(textOf(m.blocks), limits.prompt)}`];
      turns.push(turn);
      continue;
    }
    if (!turn) turns.push(turn = []);
    if (m.role === "assistant" && m.kind === "turn") {
      const said = textOf(m.blocks);
      if (said) conclusion = said;
    }
    for (const b of m.blocks) {
      if (b.type !== "tool_call") continue;
      filesOf(b, files);
      const target = oneLine(callTarget(b), limits.line);
      turn.push(`- ${b.name}${target ? ` ${target}` : ""} → ${outcome(results.get(b.id), limits)}`);
    }
  }
  closeTurn();
  const prompts = turns.filter((t) => t[0]?.startsWith("User: ")).length;
  const lines = [
    FIT_SUMMARY_HEADER,
    `The conversation was longer than ${context.model}'s window of ${context.window} tokens. Its first ` +
    `${messages.length} messages (${prompts} user prompts) are summarized here, without tool outputs or ` +
    "reasoning; the full history is kept on disk. The most recent turns follow verbatim.",
    "",
    ...turns.flatMap((t, i) => [`## Turn ${i + 1}`, ...t, ""]),
  ];
  if (files.size) {
    lines.push(
      "## Files touched",
      ...[...files].map((f) => `- ${oneLine(f, limits.line)}`),
      "",
    );
  }
  lines.push(...pendingLines(context.pending));
  if (handshakes.length) lines.push("## Earlier handoffs", ...handshakes, "");
  return lines.join("\n").trimEnd();
}

function pendingLines(pending: Pending): string[] {
  const calls = pending.openToolCalls.map((c) =>
    `- interrupted call: ${c.name}${c.command ? ` ${c.command}` : ""}`
  );
  const queued = pending.queuedInput.map((q) => `- queued message: ${q.text}`);
  const stopped = pending.interruptedTurn ? ["- the last assistant turn stopped before it finished"] : [];
  const all = [...calls, ...queued, ...stopped];
  return all.length ? ["## Pending when the session stopped", ...all, ""] : [];
}
