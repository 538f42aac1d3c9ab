/**
 * A session fitted to the window of the model it continues on: when its live thread would not fit (or `--fit
 * TOKENS` says how much it may fill), the oldest messages move, verbatim and in order, to a compacted thread
 * (kept on disk by every writer, for the user to scroll), and the live thread becomes a summary of them
 * (summary.ts) followed by the most recent turns verbatim. The cut falls before a prompt the user typed where it
 * can, else between any two messages, never between a tool call and its result; the most recent turns kept
 * are as many as fit beside the summary. A session that fits is returned as it is, so it is written exactly as
 * without fitting.
 */
import type { Message } from "../ir/schema.ts";
import { type MessageSpill, spillMessages } from "../ir/spill.ts";
import type { SessionStream, ThreadStream } from "../ir/stream.ts";
import { FitHistory } from "./history.ts";
import { KeptTokens } from "./kept.ts";
import { FIT_THREAD_ID } from "./marker.ts";
import { restoreFitted } from "./restore.ts";
import { PrefixSummaries, SUMMARY_LEVELS, type SummaryContext, type SummaryLimits } from "./summary.ts";
import {
  CHARS_PER_TOKEN,
  counterOf,
  SURELY_OVER,
  type TokenCounter,
  tokenCounter,
  tokenFamily,
} from "./tokens.ts";
import { exactCounter, hasTokenizer } from "./tokenizer.ts";
import { collectYoungGarbage, reclaimMemory } from "../runtime.ts";
import { type Summarizer, type SummaryAuthor, summaryBy } from "./summarizer.ts";
import { fitBudget, fittedModel, type ModelWindow, modelWindow } from "./windows.ts";
import type { ModelRules } from "../harnesses/models.ts";

/** `--fit`: only when the history would not fit (auto), never, or to at most this many tokens. */
export type FitMode = "auto" | "off" | number;

export interface FitRequest {
  mode: FitMode;
  /** What the target's descriptor says of models: the one it runs unasked, a cap on every window. */
  models: ModelRules;
  /** The model the session continues on, when one is known. */
  model?: string;
  /** `--context TOKENS`. */
  context?: number;
  /** The window the target's configuration gives the model, when it gives one. */
  configuredWindow?: number;
  /** `--summarize-with`: a harness's model writes the summary (summarizer.ts). */
  summarizer?: Summarizer;
}

/** What the model will see, for the report, `inspect` and the TUI's plan. */
export interface FitPlan {
  window: ModelWindow;
  /** The tokens the session may fill: the window less its margin, or `--fit TOKENS`. */
  budget: number;
  /** The live thread's tokens before fitting. */
  total: number;
  /** What is sent was counted by the model family's own tokenizer (else estimated from characters). */
  exact: boolean;
  /** Absent when the session fits as it is. */
  fitted?: {
    summarizedMessages: number;
    summarizedPrompts: number;
    summaryTokens: number;
    keptMessages: number;
    keptTokens: number;
    /** Who wrote the summary. */
    author: SummaryAuthor;
  };
  /** A hop back put a fitted session's full history back before fitting it again. */
  restored: boolean;
  /** Over the budget but written whole: this harness, the target, compacts it itself on resume. */
  compactedBy?: string;
}

export interface Fitting {
  session: SessionStream;
  plan: FitPlan;
  /**
   * Lets go of what the fitted session's compacted thread is read from (a streamed session's spill file), once
   * it is written; the thread cannot be read after.
   */
  release(): void;
}

/** The session as the target's model should see it, and what fitting it did (none when `mode` is off). */
export async function fitSession(source: SessionStream, request: FitRequest): Promise<Fitting | undefined> {
  if (request.mode === "off") return undefined;
  const session = await restoreFitted(source);
  const restored = session !== source;
  const window = modelWindow(request.models, request.model, {
    ...(request.context ? { flag: request.context } : {}),
    ...(request.configuredWindow ? { configured: request.configuredWindow } : {}),
  });
  const budget = typeof request.mode === "number" ? request.mode : fitBudget(window.tokens);
  const model = fittedModel(request.models, request.model);
  // The thread is read once: a streamed one is not held, its messages pass through a spill file the compacted
  // thread is read back from, in case it must be cut.
  const spill = Array.isArray(session.messages) ? undefined : spillMessages();
  const release = () => spill?.close();
  try {
    const fitting = await fitHistory(session, request, { window, budget, model, restored }, spill);
    // What the fit made and let go (its counts, the cut's search, the read's last garbage) is collected before
    // the writer's passes begin, which would otherwise pile their own on top of it. With the collection before
    // the tokenizer (below), the 70 MB session held into Codex peaks at 210-214 MB instead of 248-253 MB, for
    // about 50 ms each of a 1.4 s conversion (less when streamed: below).
    if (spill || fitting.plan.total > fitting.plan.budget) reclaimMemory();
    if (!fitting.plan.fitted) release();
    return { ...fitting, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** What fitSession knows before it reads the thread. */
interface FitSetting {
  window: ModelWindow;
  budget: number;
  model: string | undefined;
  restored: boolean;
}

async function fitHistory(
  session: SessionStream,
  request: FitRequest,
  { window, budget, model, restored }: FitSetting,
  spill: MessageSpill | undefined,
): Promise<Omit<Fitting, "release">> {
  const family = tokenFamily(model);
  const estimate = tokenCounter(family);
  // Only messages with at most a few budgets after them could be kept beside a summary, so only those are held.
  const summaryRoom = Math.max(budget, request.summarizer ? fitBudget(request.summarizer.window) : 0);
  const history = new FitHistory(estimate, SURELY_OVER * budget, summaryRoom, spill);
  for await (const m of session.messages) history.add(m);
  let total = history.total;
  // A session of fewer characters than the budget fits without loading a tokenizer: only CJK text comes near a
  // token a character, only rare symbols pass it, and the margin (windows.ts) absorbs those. A family with no
  // tokenizer is counted by the estimate alone.
  const tokenized = hasTokenizer(family) && total * CHARS_PER_TOKEN[family] > budget;
  // The tokenizer's tables (about 50 MB) and the cut's search start from what is live, not on top of the read's
  // last garbage (a streamed session's heap is mostly columns of numbers, so a full collection costs little
  // there; a held one of 70 MB takes about 50 ms). Without the tables the search alone is not worth that: the
  // collection after the fit (fitSession) takes its garbage with the read's.
  if (tokenized) reclaimMemory();
  const exact = tokenized ? await exactCounter(family) : undefined;
  const counter = bounded(estimate, exact, budget);
  // Each message's exact count, when every one was counted for the total: kept for the cut's search below,
  // which would otherwise count the most recent again.
  let exactCounts: number[] | undefined;
  if (exact && total <= SURELY_OVER * budget) {
    // Then no message has more than that after it: every one is held.
    exactCounts = history.messagesFrom(0).map((m) => counter.message(m));
    total = exactCounts.reduce((sum, count) => sum + count, 0);
  }
  const plan: FitPlan = { window, budget, total, exact: exact !== undefined, restored };
  if (total <= budget) return { session, plan };
  if (request.summarizer?.compactsOnResume) {
    return { session, plan: { ...plan, compactedBy: request.summarizer.name } };
  }
  // Counted again from the most recent, as the search asks: only the messages a cut could keep need the
  // tokenizer, the rest (more than the budget after them) are over it whatever their count.
  const { recentFrom } = history;
  const recent = history.messagesFrom(recentFrom);
  const kept = new KeptTokens(history.length, recentFrom, (i, after) => {
    if (after > budget) return history.counts.get(i);
    return exactCounts?.[i] ?? counter.message(recent[i - recentFrom]!);
  });
  const context = {
    model: model ?? "the model",
    window: window.tokens,
    pending: session.pending,
  };
  const choose = (count: (text: string) => number) => chooseCut(history, kept, budget, count, context);
  // The search counts its candidates' parts by the estimate (tokenizing every turn's lines at every level of
  // detail would cost seconds on a long session); the tokenizer counts the summary chosen. Where the estimate
  // was short of it, the search is made again with the estimate scaled by what the tokenizer found (summaries
  // of one session are much alike), and only if that is still short, with the tokenizer counting every part.
  let cut = choose(estimate.text);
  for (let tries = 0; exact && tries < 3; tries++) {
    const text = cut.summary();
    const summaryTokens = counter.text(text);
    if (summaryTokens + cut.keptTokens <= budget) {
      cut = { ...cut, summaryTokens };
      break;
    }
    const scale = (summaryTokens / Math.max(1, estimate.text(text))) * SCALE_PAD;
    cut = tries < 2 ? choose((text) => Math.ceil(estimate.text(text) * scale)) : choose(counter.text);
  }
  const keptMessages = history.messagesFrom(cut.at);
  const written = request.summarizer
    ? await summaryBy(request.summarizer, history.told, cut.at, context, budget - cut.keptTokens, counter)
    : undefined;
  // The summary is as recent as the last message it stands for.
  const timestamp = cut.at ? messageAt(session, spill, cut.at - 1).timestamp : undefined;
  const summary: Message = {
    uid: "session-bridge-fit-summary",
    parentUid: null,
    role: "user",
    kind: "summary",
    ...(timestamp ? { timestamp } : {}),
    blocks: [{ type: "text", text: written?.text ?? cut.summary() }],
  };
  const summarized = Array.isArray(session.messages)
    ? session.messages.slice(0, cut.at)
    : spill!.records(cut.at);
  const thread: ThreadStream = { id: FIT_THREAD_ID, kind: "compacted", messages: summarized };
  return {
    session: { ...session, messages: [summary, ...keptMessages], threads: [...session.threads, thread] },
    plan: {
      ...plan,
      fitted: {
        summarizedMessages: cut.at,
        summarizedPrompts: history.promptsBefore(cut.at),
        summaryTokens: written?.tokens ?? cut.summaryTokens,
        keptMessages: keptMessages.length,
        keptTokens: cut.keptTokens,
        author: written?.author ?? { by: "session-bridge" },
      },
    },
  };
}

/** Message `i` of the thread fitting read: held by the session, or in the spill. */
function messageAt(session: SessionStream, spill: MessageSpill | undefined, i: number): Message {
  return Array.isArray(session.messages) ? session.messages[i]! : spill!.at(i);
}

/** How much over the tokenizer's own ratio an estimate scaled to it counts, to land within the budget. */
const SCALE_PAD = 1.02;

/** The exact counter where a text could fit the budget, the estimate where it surely cannot. */
function bounded(estimate: TokenCounter, exact: TokenCounter | undefined, budget: number): TokenCounter {
  if (!exact) return estimate;
  return counterOf((text) => {
    const estimated = estimate.text(text);
    return estimated > SURELY_OVER * budget ? estimated : exact.text(text);
  }, true);
}

interface Cut {
  /** The first message kept verbatim. */
  at: number;
  summaryTokens: number;
  /** Exact where the cut fits; where it does not, some number over what its summary leaves (KeptTokens). */
  keptTokens: number;
  /** The summary's text, made once a cut is chosen (and once only: it is counted, then sent). */
  summary(): string;
}

/**
 * The earliest cut whose kept messages and summary fit the budget: first among cuts before a prompt, with
 * ever shorter summaries, then among any clean cut. Kept tokens fall and the summary grows as the cut moves
 * later, so the first fitting cut is found by bisection, each summary counted from its parts (PrefixSummaries).
 */
function chooseCut(
  history: FitHistory,
  kept: KeptTokens,
  budget: number,
  count: (text: string) => number,
  context: SummaryContext,
): Cut {
  const { length } = history;
  const cuts = history.cleanCuts();
  const beforePrompt = cuts.filter((c) => c === length || history.isPrompt(c));
  // The turns are told once, for every level; a level holds only its counts (its lines are made again for the
  // chosen cut's text alone), and is made once for both searches.
  const levels = new Map<SummaryLimits, PrefixSummaries>();
  const level = (limits: SummaryLimits) => {
    let summaries = levels.get(limits);
    if (!summaries) {
      levels.set(limits, summaries = new PrefixSummaries(history.told, context, limits, count));
      // Only the level's counts are kept: the lines it made to count are collected before the next level.
      collectYoungGarbage();
    }
    return summaries;
  };
  // A cut's kept tokens are counted only as far as its summary leaves room for them (KeptTokens): exact when it
  // fits, over the room when it does not.
  const cutOf = (summaries: PrefixSummaries, recent?: number) => (c: number): Cut => {
    const summaryTokens = summaries.tokens(c, recent);
    let text: string | undefined;
    return {
      at: c,
      summaryTokens,
      keptTokens: kept.within(c, budget - summaryTokens),
      summary: () => text ??= summaries.text(c, recent),
    };
  };
  // Some turns kept verbatim beside a tighter summary are worth more than a roomier summary of everything.
  let whole: Cut | undefined;
  // Whole turns kept (a cut before a prompt) at any summary's length first; a turn cut in two only after.
  for (const candidates of [beforePrompt, cuts]) {
    for (const limits of history.told.levels) {
      const found = firstFitting(candidates, cutOf(level(limits)), budget);
      if (found && found.at < length) return found;
      whole ??= found;
    }
  }
  if (whole) return whole;
  // Too many prompts for a line each: the last turn kept verbatim where it takes no more than a quarter of the
  // budget (else everything summarized), listing as many of the most recent turns as fit beside it.
  const tightest = level(SUMMARY_LEVELS.at(-1)!);
  const turns = history.promptsBefore(length);
  const lastTurn = beforePrompt.at(-2);
  const ends = lastTurn !== undefined && kept.within(lastTurn, budget / 4) <= budget / 4
    ? [lastTurn, length]
    : [length];
  for (const c of ends) {
    let [low, high, best] = [0, turns, undefined as Cut | undefined];
    while (low <= high) {
      const mid = (low + high) >> 1;
      const cut = cutOf(tightest, mid)(c);
      if (cut.summaryTokens + cut.keptTokens <= budget) {
        best = cut;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (best) return best;
  }
  // When not even the count of turns fits, the tightest summary, which the plan shows as over.
  return cutOf(tightest)(length);
}

/** The first of `cuts` (ascending) whose summary and kept messages fit `budget`, by bisection. */
function firstFitting(cuts: readonly number[], at: (c: number) => Cut, budget: number): Cut | undefined {
  let [low, high] = [0, cuts.length - 1];
  let found: Cut | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const cut = at(cuts[mid]!);
    if (cut.summaryTokens + cut.keptTokens <= budget) {
      found = cut;
      high = mid - 1;
    } else low = mid + 1;
  }
  return found;
}
