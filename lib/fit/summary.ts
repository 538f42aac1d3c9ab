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

/**
 * How much of each part the summary holds: characters of a prompt, a conclusion (0: none) and a line; each
 * tool call as a line, or only how many of each tool a turn called, or nothing; how many files it lists; a
 * heading and a blank line for each turn, or one line a turn.
 */
export interface SummaryLimits {
  prompt: number;
  conclusion: number;
  line: number;
  tools: "lines" | "counts" | "none";
  files: number;
  compact: boolean;
  /**
   * Only the most recent this many turns listed, the earlier ones counted: the last resort for a session of
   * so many prompts that not even a line each fits the window.
   */
  recentTurns?: number;
}

export const SUMMARY_LIMITS: SummaryLimits = {
  prompt: 4_000,
  conclusion: 1_500,
  line: 160,
  tools: "lines",
  files: 1_000,
  compact: false,
};

/**
 * Ever shorter summaries, tried in turn while a summary leaves no room for any recent turn (or is itself over
 * the budget): shorter prompts and conclusions, then each turn's calls only counted, then every prompt on a
 * line of its own and nothing else of the turn, then its first words only. Every prompt stays in each (fit.ts
 * lists only the most recent ones, with `recentTurns`, when a session has too many prompts for even that).
 */
export const SUMMARY_LEVELS: readonly SummaryLimits[] = [
  SUMMARY_LIMITS,
  { ...SUMMARY_LIMITS, prompt: 1_000, conclusion: 400, line: 100, files: 300 },
  { ...SUMMARY_LIMITS, prompt: 250, conclusion: 120, line: 60, tools: "counts", files: 100 },
  { prompt: 160, conclusion: 0, line: 60, tools: "none", files: 30, compact: true },
  { prompt: 60, conclusion: 0, line: 40, tools: "none", files: 0, compact: true },
];

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

/** A turn as the summary tells it: what the user typed, the calls made, what the assistant concluded. */
interface Turn {
  prompt?: string;
  calls: { name: string; target: string; outcome: string }[];
  conclusion?: string;
}

/** The turns of `messages`, the files their calls touched and the earlier handoffs among them, in one pass. */
function turnsOf(messages: readonly Message[], limits: SummaryLimits) {
  const results = new Map<string, ToolResultBlock>();
  for (const m of messages) for (const b of m.blocks) if (b.type === "tool_result") results.set(b.callId, b);
  const files = new Set<string>();
  const handshakes: string[] = [];
  const turns: Turn[] = [];
  let turn: Turn | undefined;
  for (const m of messages) {
    if (isHandshake(m)) {
      handshakes.push(textOf(m.blocks));
      continue;
    }
    if (isPrompt(m)) {
      turns.push(turn = { prompt: textOf(m.blocks), calls: [] });
      continue;
    }
    if (!turn) turns.push(turn = { calls: [] });
    if (m.role === "assistant" && m.kind === "turn") {
      const said = textOf(m.blocks);
      if (said) turn.conclusion = said;
    }
    for (const b of m.blocks) {
      if (b.type !== "tool_call") continue;
      filesOf(b, files);
      turn.calls.push({
        name: b.name,
        target: oneLine(callTarget(b), limits.line),
        outcome: outcome(results.get(b.id), limits),
      });
    }
  }
  return { turns, files, handshakes };
}

/** How many calls of each tool, in the order first called: `Bash ×3, Read ×1`. */
function callCounts(calls: Turn["calls"]): string {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name} ×${n}`).join(", ");
}

function turnLines(turn: Turn, limits: SummaryLimits): string[] {
  const lines = turn.prompt === undefined ? [] : [`User: ${trimmed(turn.prompt, limits.prompt)}`];
  if (limits.tools === "lines") {
    lines.push(...turn.calls.map((c) => `- ${c.name}${c.target ? ` ${c.target}` : ""} → ${c.outcome}`));
  } else if (limits.tools === "counts" && turn.calls.length) lines.push(`- tools: ${callCounts(turn.calls)}`);
  if (limits.conclusion && turn.conclusion) {
    lines.push(`Assistant concluded: ${trimmed(turn.conclusion, limits.conclusion)}`);
  }
  return lines;
}

/** The summary's text for `messages` (the ones fitted away), in order. */
export function summaryText(
  messages: readonly Message[],
  context: SummaryContext,
  limits = SUMMARY_LIMITS,
): string {
  const { turns, files, handshakes } = turnsOf(messages, limits);
  const prompts = turns.filter((t) => t.prompt !== undefined).length;
  const from = Math.max(0, turns.length - (limits.recentTurns ?? turns.length));
  const lines = [
    FIT_SUMMARY_HEADER,
    `The conversation was longer than ${context.model}'s window of ${context.window} tokens. Its first ` +
    `${messages.length} messages (${prompts} user prompts) are summarized here, without tool outputs or ` +
    "reasoning; the full history is kept on disk. The most recent turns follow verbatim.",
    "",
    ...(from
      ? [`(The first ${from} turns are too many to list within the window: they are on disk.)`, ""]
      : []),
    ...turns.slice(from).flatMap((t, i) =>
      limits.compact
        ? [`${from + i + 1}. ${turnLines(t, limits).join(" ")}`]
        : [`## Turn ${from + i + 1}`, ...turnLines(t, limits), ""]
    ),
  ];
  if (limits.compact) lines.push("");
  if (files.size) {
    const listed = [...files].slice(0, limits.files).map((f) => `- ${oneLine(f, limits.line)}`);
    const more = files.size > limits.files ? [`- and ${files.size - limits.files} more`] : [];
    lines.push("## Files touched", ...listed, ...more, "");
  }
  lines.push(...pendingLines(context.pending));
  if (handshakes.length) {
    lines.push(
      "## Earlier handoffs",
      ...handshakes.map((h) => trimmed(h, limits.conclusion || limits.line)),
      "",
    );
  }
  return lines.join("\n").trimEnd();
}

/** What was pending when the session stopped, as the summary's section (none when nothing was). */
export function pendingLines(pending: Pending): string[] {
  const calls = pending.openToolCalls.map((c) =>
    `- interrupted call: ${c.name}${c.command ? ` ${c.command}` : ""}`
  );
  const queued = pending.queuedInput.map((q) => `- queued message: ${q.text}`);
  const stopped = pending.interruptedTurn ? ["- the last assistant turn stopped before it finished"] : [];
  const all = [...calls, ...queued, ...stopped];
  return all.length ? ["## Pending when the session stopped", ...all, ""] : [];
}
