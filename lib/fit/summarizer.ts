/**
 * `--summarize-with HARNESS`: the summary of the fitted-away messages written by a harness's model instead of
 * made without one. What the model is given is the deterministic summary itself (summary.ts) at the most detail
 * that fits the summarizing model's window, so a session of any length can be summarized in one request, and
 * it is asked to rewrite it as the notes an agent continues from. What was pending is appended to its answer
 * as the deterministic summary states it: it must travel whatever the model chose to keep. An answer longer
 * than the room the cut left is not used: the deterministic summary is, and the plan says why.
 */
import { Buffer } from "node:buffer";
import { FIT_SUMMARY_HEADER } from "./marker.ts";
import {
  pendingLines,
  PrefixSummaries,
  SUMMARY_LEVELS,
  type SummaryContext,
  summaryIntro,
  type SummaryTurns,
} from "./summary.ts";
import { type TokenCounter, tokenCounter } from "./tokens.ts";
import { fitBudget } from "./windows.ts";

/** A harness's model asked for the summary (built by lib/engines/summarizer.ts: it runs the harness). */
export interface Summarizer {
  /** The harness that writes it, for the report. */
  name: string;
  /** The window of the model it runs, in tokens: the material it is given fits it. */
  window: number;
  /** The most bytes of prompt its binary can be given (one that takes it as an argument); absent, no limit. */
  promptBytes?: number;
  /** The model's answer to `prompt`; absent on a plan, which only says who would write it. */
  summarize?: (prompt: string) => Promise<SummarizerAnswer>;
  /**
   * The harness is the target and compacts a history over its window itself when resumed (Hermes Agent,
   * Copilot CLI): the session is written whole and its own compaction makes the summary.
   */
  compactsOnResume?: boolean;
}

/** What the summarizing model answered, and what asking it left behind. */
export interface SummarizerAnswer {
  text: string;
  /**
   * A conversation of the summarizing turn the harness still keeps, in words (its own delete command failed):
   * reported, since the turn was to leave nothing in its list.
   */
  leftBehind?: string;
}

/** The summarizer as a plan names it: who would write the summary, asked nothing. */
export const plannedOnly = ({ name, window, promptBytes, compactsOnResume }: Summarizer): Summarizer => ({
  name,
  window,
  ...(promptBytes !== undefined ? { promptBytes } : {}),
  ...(compactsOnResume ? { compactsOnResume } : {}),
});

/** How the summary of a fitted session was made. */
export type SummaryAuthor =
  | { by: "session-bridge" }
  | { by: "model"; harness: string; leftBehind?: string }
  /** A plan: the harness would be asked when the session is written. */
  | { by: "planned"; harness: string }
  /** The harness's answer was over the room left for a summary, so the deterministic one was used. */
  | { by: "session-bridge"; harness: string; answerTokens: number; room: number; leftBehind?: string };

/** The most the model is asked to write, in words: a summary is notes, not the session again. */
const MAX_WORDS = 3_000;
/** Words per token of English prose, to turn the room in tokens into a length the model understands. */
const WORDS_PER_TOKEN = 0.6;

/** The request the summarizing model is sent: what to keep, how long, then the material. */
export function summarizerPrompt(material: string, words: number): string {
  return [
    "Summarize this conversation between a user and a coding agent so that the agent can continue the work " +
    "from your summary alone. Keep every request the user made (verbatim where short), the decisions taken " +
    "and why, the files touched, the commands run and what they showed, the errors met and how they were " +
    "resolved, and what was left unfinished. Write at most " + `${words} words. Reply with the summary only.`,
    "",
    "<conversation>",
    material,
    "</conversation>",
  ].join("\n");
}

/**
 * The material for `summarizer`: the deterministic summary of the first `cut` messages `told`, at the most
 * detail whose estimate fits the summarizing model's window less its margin, and the prompt its binary can be
 * given; when none does, the tightest listing as many of the most recent turns as fit (the earlier ones
 * counted). Estimated at the lowest measured characters per token, since the summarizing model may be of any
 * family.
 */
function materialFor(
  told: SummaryTurns,
  cut: number,
  context: SummaryContext,
  summarizer: Summarizer,
  words: number,
): string {
  const room = fitBudget(summarizer.window);
  const cost = materialCost(room, summarizer.promptBytes, words);
  for (const limits of told.levels) {
    const material = new PrefixSummaries(told, context, limits, () => 0).text(cut);
    if (cost(material) <= room) return material;
  }
  const tightest = new PrefixSummaries(told, context, SUMMARY_LEVELS.at(-1)!, cost);
  let [low, high, recent] = [0, cut, 0];
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (tightest.tokens(cut, mid) <= room) [recent, low] = [mid, mid + 1];
    else high = mid - 1;
  }
  return tightest.text(cut, recent);
}

/**
 * What material costs of `room`: its estimated tokens, or, where the binary takes the prompt as an argument,
 * its share of the bytes the argument has left beside the request's own words, scaled to `room`, if larger.
 * Additive over parts (a summary's lines are counted one by one), as PrefixSummaries needs.
 */
function materialCost(
  room: number,
  promptBytes: number | undefined,
  words: number,
): (text: string) => number {
  const estimate = tokenCounter("other").text;
  if (promptBytes === undefined) return estimate;
  const left = promptBytes - Buffer.byteLength(summarizerPrompt("", words));
  return (text) => Math.max(estimate(text), Math.ceil((Buffer.byteLength(text) * room) / left));
}

export interface ModelSummary {
  /** The summary to send; absent when the deterministic one stays. */
  text?: string;
  tokens?: number;
  author: SummaryAuthor;
}

/**
 * The summary `summarizer` writes of the first `cut` messages `told` (a cut no call spans), within `room`
 * tokens as `counter` counts them.
 */
export async function summaryBy(
  summarizer: Summarizer,
  told: SummaryTurns,
  cut: number,
  context: SummaryContext,
  room: number,
  counter: TokenCounter,
): Promise<ModelSummary> {
  if (!summarizer.summarize) return { author: { by: "planned", harness: summarizer.name } };
  const words = Math.max(100, Math.min(MAX_WORDS, Math.floor(room * WORDS_PER_TOKEN)));
  const asked = await summarizer.summarize(
    summarizerPrompt(materialFor(told, cut, context, summarizer, words), words),
  );
  const answer = asked.text.trim();
  const left = asked.leftBehind ? { leftBehind: asked.leftBehind } : {};
  const text = [
    FIT_SUMMARY_HEADER,
    summaryIntro(context, `${cut} messages`, ` by ${summarizer.name}`),
    "",
    answer,
    "",
    ...pendingLines(context.pending),
  ].join("\n").trimEnd();
  const tokens = counter.text(text);
  if (tokens > room) {
    return {
      author: { by: "session-bridge", harness: summarizer.name, answerTokens: tokens, room, ...left },
    };
  }
  return { text, tokens, author: { by: "model", harness: summarizer.name, ...left } };
}
