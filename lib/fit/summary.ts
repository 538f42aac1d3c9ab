/**
 * The summary a fitted session starts with, made without a model and the same every time for the same
 * messages: every prompt the user typed (a huge one trimmed, with a marker saying how much), the assistant's
 * conclusion of each turn (its last text), each tool call as one line (tool, target, outcome), the files
 * touched, what was pending and what earlier handoffs said. Tool outputs and reasoning are what it leaves out.
 */
import type { Block, Message, Pending, ToolCallBlock } from "../ir/schema.ts";
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
 * lists only the most recent turns when a session has too many prompts for even that).
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

/** The first line of `text` (after its leading and trailing blanks). */
const firstLine = (text: string) => text.trim().split("\n", 1)[0] ?? "";

/** The first line of `text`, cut to `max`. */
const oneLine = (text: string, max: number) => trimmed(firstLine(text), max);

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
  // A copy, not a view into the patch (see clip).
  for (const m of patch.matchAll(PATCH_FILE)) into.add(copied(m[1]!.trim()));
}

/**
 * A text as the summary may show it: its first characters, as many as the roomiest level still possible shows
 * (TurnTeller), and its length, for the marker saying how much was left out.
 */
interface Clipped {
  head: string;
  length: number;
}

/**
 * `text` clipped to `max`; `of`, the string `text` may be a view into (its first line). A head shorter than
 * that string is copied: a view would keep the whole string alive (both engines keep a slice's parent), and a
 * streamed thread's tool outputs must be freed once read (issue 34).
 */
function clip(text: string, max: number, of = text): Clipped {
  const head = text.length <= max ? text : text.slice(0, max);
  return { head: head.length < of.length ? copied(head) : head, length: text.length };
}

/** A string of its own with `text`'s characters (a slice shares its parent's). */
const copied = (text: string) => JSON.parse(JSON.stringify(text)) as string;

/** The first line of `text`, clipped to `max`. */
const clipLine = (text: string, max: number) => clip(firstLine(text), max, text);

/** `text` cut to `max` characters (at most its head's), as `trimmed` cuts the whole. */
function shown(text: Clipped, max: number): string {
  if (text.length <= max) return text.head;
  return `${text.head.slice(0, max)} […${text.length - max} characters left out]`;
}

/** A call's outcome as the summary tells it, when it was answered: ok or failed, its output's first line. */
type Outcome = { failed: boolean; first: Clipped };

function outcomeLine(outcome: Outcome | undefined, limits: SummaryLimits): string {
  if (!outcome) return "no result";
  const first = shown(outcome.first, limits.line);
  return `${outcome.failed ? "failed" : "ok"}${first ? `: ${first}` : ""}`;
}

/** A turn as every level of detail tells it (each level trims it): the prompt, the calls, the conclusion. */
interface TurnLines {
  prompt?: Clipped;
  calls: { name: string; target: Clipped; outcome?: Outcome }[];
  conclusion?: Clipped;
}

/**
 * A turn as the thread told it, each part where it was said, so the turn as far as any cut is told too: what
 * the user typed, the calls made (the first line of each one's target; its outcome is its result's), what the
 * assistant said, the last of which concluded it.
 */
interface Turn {
  /** The position of its first message in the thread. */
  at: number;
  prompt?: Clipped;
  calls: { at: number; id: string; name: string; target: Clipped }[];
  said: { at: number; text: Clipped }[];
}

/** A call's results, each where it was given, in order (an id used again has more than one). */
type Results = Map<string, { at: number; outcome: Outcome }[]>;

/** A thread's turns, the files their calls touched and its earlier handoffs, each where it first appears. */
export interface SummaryTurns {
  turns: Turn[];
  results: Results;
  files: Map<string, number>;
  handshakes: { at: number; text: Clipped }[];
  /** How many messages were told. */
  length: number;
  /** The levels of detail whose summaries can be made of these parts (the tightest ones of SUMMARY_LEVELS). */
  levels: readonly SummaryLimits[];
}

/** How much of an earlier handoff's text a level shows. */
const handshakeChars = (limits: SummaryLimits) => limits.conclusion || limits.line;

/** A call's target where the level shows none (only how many calls of each tool, or nothing). */
const UNSHOWN: Clipped = { head: "", length: 0 };

/** `text` clipped again to `max` (a copy: the longer head is let go). */
const reclipped = (text: Clipped, max: number): Clipped =>
  text.head.length <= max ? text : { head: copied(text.head.slice(0, max)), length: text.length };

/**
 * Tells a thread's turns as its messages pass, one at a time (a streamed thread is read once and not held):
 * the same parts for every level of detail, so fitting walks a thread once however many levels it tries. Each
 * part is kept only as far as the roomiest level still possible shows it (`told.levels`, narrowed as the
 * thread shows a level cannot fit: see lib/fit/history.ts), so what is held stays near what a summary can hold.
 */
export class TurnTeller {
  readonly told: SummaryTurns = {
    turns: [],
    results: new Map(),
    files: new Map(),
    handshakes: [],
    length: 0,
    levels: SUMMARY_LEVELS,
  };
  #turn: Turn | undefined;

  add(m: Message): void {
    const { told } = this;
    const kept = told.levels[0]!;
    const at = told.length++;
    if (isHandshake(m)) {
      told.handshakes.push({ at, text: clip(textOf(m.blocks), handshakeChars(kept)) });
      return;
    }
    if (isPrompt(m)) {
      told.turns.push(this.#turn = { at, prompt: clip(textOf(m.blocks), kept.prompt), calls: [], said: [] });
      return;
    }
    const turn = this.#turn ?? (this.#turn = { at, calls: [], said: [] });
    if (turn.at === at) told.turns.push(turn);
    if (kept.conclusion && m.role === "assistant" && m.kind === "turn") {
      const said = textOf(m.blocks);
      if (said) turn.said.push({ at, text: clip(said, kept.conclusion) });
    }
    for (const b of m.blocks) {
      if (b.type === "tool_result" && kept.tools === "lines") {
        const outcome = { failed: b.isError, first: clipLine(textOf(b.content), kept.line) };
        const given = told.results.get(b.callId);
        if (given) given.push({ at, outcome });
        else told.results.set(b.callId, [{ at, outcome }]);
      }
      if (b.type !== "tool_call") continue;
      const touched = new Set<string>();
      filesOf(b, touched);
      for (const f of touched) if (!told.files.has(f)) told.files.set(f, at);
      if (kept.tools === "none") continue;
      const target = kept.tools === "lines" ? clipLine(callTarget(b), kept.line) : UNSHOWN;
      turn.calls.push({ at, id: b.id, name: b.name, target });
    }
  }

  /** Gives up the roomiest level still possible: what only it showed is let go, and not kept from now on. */
  narrow(): void {
    const { told } = this;
    if (told.levels.length === 1) return;
    told.levels = told.levels.slice(1);
    const kept = told.levels[0]!;
    for (const turn of told.turns) {
      if (turn.prompt) turn.prompt = reclipped(turn.prompt, kept.prompt);
      turn.said = kept.conclusion
        ? turn.said.map((s) => ({ at: s.at, text: reclipped(s.text, kept.conclusion) }))
        : [];
      turn.calls = kept.tools === "none" ? [] : turn.calls.map((c) => ({
        ...c,
        target: kept.tools === "lines" ? reclipped(c.target, kept.line) : UNSHOWN,
      }));
    }
    if (kept.tools !== "lines") told.results.clear();
    for (const [id, given] of told.results) {
      const first = (r: { outcome: Outcome }) => reclipped(r.outcome.first, kept.line);
      told.results.set(id, given.map((r) => ({ at: r.at, outcome: { ...r.outcome, first: first(r) } })));
    }
    told.handshakes = told.handshakes.map((h) => ({
      at: h.at,
      text: reclipped(h.text, handshakeChars(kept)),
    }));
  }
}

/** The turns of `messages`, the files their calls touched and the earlier handoffs among them (TurnTeller). */
export function turnsOf(messages: Iterable<Message>): SummaryTurns {
  const teller = new TurnTeller();
  for (const m of messages) teller.add(m);
  return teller.told;
}

/**
 * Turn `turn` as told up to position `c` (its whole when `c` is past it): its calls and what was said before
 * `c`, each call's outcome its last result given in the turn before `c` (a whole turn's, its last anywhere).
 */
function linesOf(turn: Turn, results: Results, c = Infinity): TurnLines {
  const lines: TurnLines = { calls: [] };
  if (turn.prompt) lines.prompt = turn.prompt;
  for (const call of turn.calls) {
    if (call.at >= c) break;
    const result = lastBefore(results.get(call.id) ?? [], c);
    const outcome = result && (c === Infinity || result.at >= turn.at) ? { outcome: result.outcome } : {};
    lines.calls.push({ name: call.name, target: call.target, ...outcome });
  }
  const conclusion = lastBefore(turn.said, c)?.text;
  if (conclusion) lines.conclusion = conclusion;
  return lines;
}

/** The last of `items` (ascending by `at`) before position `c`. */
function lastBefore<T extends { at: number }>(items: readonly T[], c: number): T | undefined {
  return items[countBefore(items, c) - 1];
}

/** How many calls of each tool, in the order first called: `Bash ×3, Read ×1`. */
function callCounts(calls: TurnLines["calls"]): string {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name} ×${n}`).join(", ");
}

function turnLines(turn: TurnLines, limits: SummaryLimits): string[] {
  const lines = turn.prompt === undefined ? [] : [`User: ${shown(turn.prompt, limits.prompt)}`];
  if (limits.tools === "lines") {
    lines.push(...turn.calls.map((c) => {
      const target = shown(c.target, limits.line);
      return `- ${c.name}${target ? ` ${target}` : ""} → ${outcomeLine(c.outcome, limits)}`;
    }));
  } else if (limits.tools === "counts" && turn.calls.length) lines.push(`- tools: ${callCounts(turn.calls)}`);
  if (limits.conclusion && turn.conclusion) {
    lines.push(`Assistant concluded: ${shown(turn.conclusion, limits.conclusion)}`);
  }
  return lines;
}

/** The summary's text for `messages` (the ones fitted away), in order. */
export function summaryText(
  messages: readonly Message[],
  context: SummaryContext,
  limits = SUMMARY_LIMITS,
): string {
  return new PrefixSummaries(turnsOf(messages), context, limits, () => 0).text(messages.length);
}

/** What a summary stands for, after its header: `what` summarized (`how`, from its comma or "by"), the rest verbatim. */
export const summaryIntro = (context: SummaryContext, what: string, how: string): string =>
  `The conversation was longer than ${context.model}'s window of ${context.window} tokens. Its first ${what} ` +
  `are summarized here${how}; the full history is kept on disk. The most recent turns follow verbatim.`;

/** Sums of `values` from the start: `sums[k]` is the sum of the first k. */
function prefixSums(values: readonly number[]): number[] {
  const sums = [0];
  for (const v of values) sums.push(sums.at(-1)! + v);
  return sums;
}

/** How many of `items` (ascending by `at`) are before position `c`. */
function countBefore(items: readonly { at: number }[], c: number): number {
  let [low, high] = [0, items.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (items[mid]!.at < c) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The summaries of every prefix of a thread at one level of detail, made of parts each made and counted once:
 * a turn's lines, a file's line, an earlier handoff. Fitting tries the summaries of ever longer prefixes; counted
 * from its parts, a prefix's summary costs a few sums instead of the prefix's walk, and its text is made once,
 * for the cut chosen. A turn's lines are counted as they are made and made again only for that text: held, they
 * were tens of megabytes a level for a 70 MB session, the peak of its conversion (issue 34). A prefix ending
 * inside a turn tells that turn as far as the cut. Made from a thread's told parts (TurnTeller), not from its
 * messages, which a streamed thread does not hold.
 * The count of a summary is its parts' counts and a token for each line break between them, which errs high.
 */
export class PrefixSummaries {
  readonly #turns: Turn[];
  readonly #results: Results;
  readonly #length: number;
  readonly #turnTokens: number[];
  readonly #prompts: number[];
  readonly #files: { at: number; line: string }[];
  readonly #fileTokens: number[];
  readonly #handshakes: { at: number; text: string }[];
  readonly #handshakeTokens: number[];
  readonly #pending: string[];
  readonly #pendingTokens: number;

  /** `told`: the thread's parts (TurnTeller), told once for every level fitting tries. */
  constructor(
    told: SummaryTurns,
    readonly context: SummaryContext,
    readonly limits: SummaryLimits,
    readonly count: (text: string) => number,
  ) {
    const { turns, files, handshakes } = told;
    this.#turns = turns;
    this.#results = told.results;
    this.#length = told.length;
    this.#turnTokens = prefixSums(turns.map((t, i) => count(this.#block(linesOf(t, this.#results), i)) + 1));
    this.#prompts = prefixSums(turns.map((t) => (t.prompt !== undefined ? 1 : 0)));
    this.#files = [...files].map(([f, at]) => ({ at, line: `- ${oneLine(f, limits.line)}` }));
    this.#fileTokens = prefixSums(this.#files.map((f) => count(f.line) + 1));
    this.#handshakes = handshakes.map((h) => ({
      at: h.at,
      text: shown(h.text, limits.conclusion || limits.line),
    }));
    this.#handshakeTokens = prefixSums(this.#handshakes.map((h) => count(h.text) + 1));
    this.#pending = pendingLines(context.pending);
    this.#pendingTokens = this.#pending.length ? count(this.#pending.join("\n")) + 1 : 0;
  }

  /** Turn `i`'s lines as one block: a heading and a blank line, or one numbered line. */
  #block(turn: TurnLines, i: number): string {
    const lines = turnLines(turn, this.limits);
    return this.limits.compact
      ? `${i + 1}. ${lines.join(" ")}`
      : [`## Turn ${i + 1}`, ...lines, ""].join("\n");
  }

  /** Where prefix `c` ends among the turns: the whole turns before it, and the one it cuts, if any. */
  #turnsBefore(c: number): { whole: number; cut?: { block: string; prompt: boolean } } {
    const started = countBefore(this.#turns, c);
    const next = this.#turns[started]?.at ?? this.#length;
    if (started === 0 || next === c) return { whole: started };
    // A prefix that ends inside turn started-1: that turn as far as the cut.
    const last = this.#turns[started - 1]!;
    return {
      whole: started - 1,
      cut: {
        block: this.#block(linesOf(last, this.#results, c), started - 1),
        prompt: last.prompt !== undefined,
      },
    };
  }

  /** The summary's first lines for prefix `c`, and the line saying how many turns it leaves unlisted. */
  #head(c: number, prompts: number, unlisted: number): string[] {
    return [
      FIT_SUMMARY_HEADER,
      summaryIntro(
        this.context,
        `${c} messages (${prompts} user prompts)`,
        ", without tool outputs or reasoning",
      ),
      "",
      ...(unlisted
        ? [`(The first ${unlisted} turns are too many to list within the window: they are on disk.)`, ""]
        : []),
    ];
  }

  /** The files section's head and tail lines for prefix `c`: none, or its heading and how many more. */
  #filesFrame(c: number): { listed: number; heading: string[]; more: string[] } {
    const touched = countBefore(this.#files, c);
    const listed = Math.min(touched, this.limits.files);
    return {
      listed,
      heading: touched ? ["## Files touched"] : [],
      more: [...(touched > listed ? [`- and ${touched - listed} more`] : []), ...(touched ? [""] : [])],
    };
  }

  /**
   * The turns listed for prefix `c`: all, or only the most `recent` (the last resort of a session of so many
   * prompts that not even a line each fits the window).
   */
  #listed(c: number, recent?: number) {
    const turned = this.#turnsBefore(c);
    const all = turned.whole + (turned.cut ? 1 : 0);
    const from = Math.max(0, all - (recent ?? all));
    const prompts = this.#prompts[turned.whole]! + (turned.cut?.prompt ? 1 : 0);
    const cut = from < all ? turned.cut : undefined;
    return { whole: turned.whole, cut, from: Math.min(from, turned.whole), prompts };
  }

  /** The tokens of the summary of the first `c` messages (listing only the most `recent` turns). */
  tokens(c: number, recent?: number): number {
    const { whole, cut, from, prompts } = this.#listed(c, recent);
    const files = this.#filesFrame(c);
    const handshakes = countBefore(this.#handshakes, c);
    const frame = [
      ...this.#head(c, prompts, from),
      ...(this.limits.compact ? [""] : []),
      ...files.heading,
      ...files.more,
      ...(handshakes ? ["## Earlier handoffs", ""] : []),
    ];
    return this.count(frame.join("\n")) + frame.length +
      this.#turnTokens[whole]! - this.#turnTokens[from]! + (cut ? this.count(cut.block) + 1 : 0) +
      this.#fileTokens[files.listed]! + this.#pendingTokens + this.#handshakeTokens[handshakes]!;
  }

  /** The summary of the first `c` messages (listing only the most `recent` turns). */
  text(c: number, recent?: number): string {
    const { whole, cut, from, prompts } = this.#listed(c, recent);
    const files = this.#filesFrame(c);
    const handshakes = this.#handshakes.slice(0, countBefore(this.#handshakes, c));
    const lines = [
      ...this.#head(c, prompts, from),
      ...this.#turns.slice(from, whole).map((t, i) => this.#block(linesOf(t, this.#results), from + i)),
      ...(cut ? [cut.block] : []),
      ...(this.limits.compact ? [""] : []),
      ...files.heading,
      ...this.#files.slice(0, files.listed).map((f) => f.line),
      ...files.more,
      ...this.#pending,
      ...(handshakes.length ? ["## Earlier handoffs", ...handshakes.map((h) => h.text), ""] : []),
    ];
    return lines.join("\n").trimEnd();
  }
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
