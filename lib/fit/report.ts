/** What fitting did, as report entries: what the model will see on resume, and what a hop back put back. */
import type { ReportEntry } from "../report/report.ts";
import { reportEntry } from "../report/entry.ts";
import type { FitPlan } from "./fit.ts";
import type { SummaryAuthor } from "./summarizer.ts";
import type { WindowSource } from "./windows.ts";

const WHERE: Readonly<Record<WindowSource, string>> = {
  flag: "--context",
  "target-config": "the target's configuration",
  table: "session-bridge's table of model windows",
  default: "session-bridge's default for a model it does not know",
};

const n = (tokens: number) => tokens.toLocaleString("en-US");

/** The entries for a plan: none for a session that fits as it was read (so its report is as it always was). */
export function fitEntries(plan: FitPlan | undefined): ReportEntry[] {
  if (!plan) return [];
  const entries: ReportEntry[] = [];
  if (plan.restored) {
    entries.push(reportEntry(
      "fit-restored",
      "info",
      "the session had been fitted to a window by an earlier handoff: its full history was put back from the " +
        "compacted thread before fitting it for this target",
    ));
  }
  if (plan.compactedBy) {
    entries.push(reportEntry("compacted-by-target", "warning", whatTheModelSees(plan)));
  }
  if (!plan.fitted) return entries;
  entries.push(
    reportEntry("fitted-to-window", "warning", whatTheModelSees(plan), {
      count: plan.fitted.summarizedMessages,
    }),
  );
  const author = plan.fitted.author;
  if (author.by === "session-bridge" && "harness" in author) {
    entries.push(reportEntry(
      "summary-not-used",
      "warning",
      `${author.harness}'s summary came to about ${n(author.answerTokens)} tokens, over the ${
        n(author.room)
      } left beside the turns kept verbatim: session-bridge's own summary is sent instead`,
    ));
  }
  if ("leftBehind" in author && author.leftBehind) {
    entries.push(reportEntry("summarizer-conversation-kept", "warning", author.leftBehind));
  }
  return entries;
}

/** Who wrote the summary, as words after "a summary" (nothing for session-bridge's own). */
function byWhom(author: SummaryAuthor): string {
  switch (author.by) {
    case "model":
      return ` written by ${author.harness}`;
    case "planned":
      return ` (to be written by ${author.harness} when the session is written)`;
    case "session-bridge":
      return "";
  }
}

/** What the target's model will be sent, in words, for the report and `inspect --to`. */
export function whatTheModelSees(plan: FitPlan): string {
  const { fitted, window } = plan;
  const from = `${n(window.tokens)} tokens (from ${WHERE[window.source]})`;
  const counted = plan.exact ? "; counted with the model's own tokenizer" : "";
  if (plan.compactedBy) {
    return `the history (about ${
      n(plan.total)
    } tokens) is longer than the model's window of ${from}; it is ` +
      `written whole, as --summarize-with ${plan.compactedBy} asked: ${plan.compactedBy} compacts it itself ` +
      `when resumed, asking its model for the summary (what it keeps verbatim is its choice)${counted}`;
  }
  if (!fitted) {
    return `the history (about ${n(plan.total)} tokens) fits the model's window of ${from} within ` +
      `${n(plan.budget)}: it is sent whole${counted}`;
  }
  const sent = fitted.summaryTokens + fitted.keptTokens;
  const over = sent > plan.budget ? " (still over: nothing smaller is possible)" : "";
  return `the history (about ${n(plan.total)} tokens) is longer than the model's window of ${from}, so the ` +
    `model will see a summary${
      byWhom(fitted.author)
    } of the first ${fitted.summarizedMessages} messages (${fitted.summarizedPrompts} ` +
    `user prompts, about ${n(fitted.summaryTokens)} tokens) and the last ${fitted.keptMessages} messages ` +
    `verbatim (about ${n(fitted.keptTokens)} tokens), within ${
      n(plan.budget)
    }${over}; the full history is kept ` +
    `on disk${counted}`;
}
