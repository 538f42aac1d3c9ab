/**
 * Handing off, step two: the plan (read-only), a separate confirm step, then the outcome. Enter on the plan
 * pages on until every line of it has been on screen, and only then moves to the confirm step: it can neither
 * cancel by accident nor confirm something unseen. On the confirm step focus lands on the handoff itself.
 */
import { useEffect, useState } from "react";
import { Box } from "ink";
import { Text } from "./colors.tsx";
import type { HandedOff, HandoffOutcome } from "../mod.ts";
import { carryOutHandoff, type HandoffChoices, planHandoff, type TuiContext } from "./data.ts";
import type { Row } from "./row.ts";
import { clip, field, wrapAtEdge, wrapWords } from "./text.ts";
import { Footer } from "./footer.tsx";
import { type KeyHelp, useKeys } from "./keys.ts";
import { messageOf } from "../errors.ts";
import { reportSections } from "../report/report.ts";

export const PLAN_KEYS: KeyHelp[] = [
  { keys: "Enter", does: "next page, then confirm" },
  { keys: "Space", does: "next page" },
];

/**
 * A line of the plan: words (wrapped between words), or a token the user may copy (an id, a path, a command),
 * on a line of its own and never broken by the layout.
 */
export type PlanLine = { words: string } | { token: string };

const words = (text: string): PlanLine => ({ words: text });
const token = (text: string): PlanLine => ({ token: text });

/** The plan in plain words: losses, what is written where, the backup, the resume and the CLI command. */
export function planLines(
  outcome: HandoffOutcome,
  commandLine: TuiContext["commandLine"],
  done?: HandedOff,
): PlanLine[] {
  const report = outcome.report;
  const out: PlanLine[] = [];
  if (done) {
    out.push(words("Handed off. Resume with:"), token(done.target.resumeCommand));
    out.push(words("Undo with (or press u here):"), token(`session-bridge undo ${done.op}`));
    out.push(words("Both are printed again when you quit (unless undone), to copy from the terminal."));
    out.push(words(""));
  } else out.push(words("Plan (nothing has been written yet):"));
  out.push(words(`From ${outcome.source.harness}, session:`), token(outcome.source.id));
  out.push(
    words(
      `to ${outcome.target.harness}${
        outcome.kind === "copy" ? " (a copy of its own records)" : ""
      }, as session:`,
    ),
    token(outcome.target.id),
  );
  out.push(words(""));
  if (report.lossless) {
    out.push(words("Nothing is lost: every part of the conversation has a place in the target."));
  }
  // The CLI's report shows the same sections: a heading's count is the lines under it.
  for (const { heading, entries } of reportSections(report)) {
    out.push(words(`${heading} (${entries.length}):`));
    for (const e of entries) out.push(words(`  ${e.detail}${e.count > 1 ? ` (${e.count} times)` : ""}`));
  }
  out.push(words(""));
  if (outcome.files.length) {
    out.push(words(done ? "Wrote the files:" : "Will write the files:"), ...outcome.files.map(token));
  }
  if (outcome.databases.length) {
    out.push(words(done ? "Wrote rows in:" : "Will write rows in:"), ...outcome.databases.map(token));
  }
  const b = outcome.backup;
  if (b.paths.length) out.push(words("Backup, made before writing:"), ...b.paths.map(token));
  else if (b.databases.length) {
    out.push(
      words("Backup: what the handoff replaces is copied before writing, in:"),
      ...b.databases.map(token),
    );
  } else out.push(words("Backup: none needed: only new files are written, nothing existing is replaced"));
  if (!done) {
    out.push(words(""));
    out.push(words("Resume with:"), token(outcome.target.resumeCommand));
  }
  if (outcome.reproduce && commandLine) {
    out.push(words("The same handoff on the command line:"), token(commandLine(outcome.reproduce)));
  }
  if (outcome.refusal) {
    out.push(words(""));
    out.push(words(`Refused: ${outcome.refusal}`));
  }
  return out;
}

/** The plan's lines on a screen `width` cells wide: words wrapped between words, tokens indented, whole. */
function screenLines(lines: PlanLine[], width: number): string[] {
  return lines.flatMap((l) =>
    "token" in l ? wrapAtEdge(`  ${field(l.token)}`, width) : wrapWords(field(l.words), width)
  );
}

export interface PlanScreenProps {
  context: TuiContext;
  row: Row;
  choices: HandoffChoices;
  width: number;
  height: number;
  active: boolean;
  onDone(done: HandedOff): void;
  onBack(): void;
  onQuit(): void;
  onHelp(keys: KeyHelp[]): void;
  onUndo(): void;
  /** Back to the session list after a handoff. */
  onFinished(): void;
}

type Stage = "planning" | "plan" | "confirm" | "writing" | "done";

export function PlanScreen(props: PlanScreenProps) {
  const { context, row, choices, width, height, active } = props;
  const [stage, setStage] = useState<Stage>("planning");
  const [outcome, setOutcome] = useState<HandoffOutcome | undefined>(undefined);
  const [done, setDone] = useState<HandedOff | undefined>(undefined);
  const [error, setError] = useState("");
  const [top, setTop] = useState(0);
  const [seenTo, setSeenTo] = useState(0);
  const [focus, setFocus] = useState<"write" | "back">("write");

  useEffect(() => {
    let cancelled = false;
    planHandoff(context, row, choices).then(
      (o) => {
        if (cancelled) return;
        setOutcome(o);
        setStage("plan");
      },
      (e) => !cancelled && setError(messageOf(e)),
    );
    return () => {
      cancelled = true;
    };
  }, []);

  const text = outcome ? screenLines(planLines(outcome, context.commandLine, done), width) : [];
  const bodyHeight = Math.max(3, height - 4);
  const lastTop = Math.max(0, text.length - bodyHeight);
  const allSeen = Math.max(seenTo, top + bodyHeight) >= text.length;
  const scroll = (to: number) => {
    const t = Math.max(0, Math.min(lastTop, to));
    setTop(t);
    setSeenTo((s) => Math.max(s, t + bodyHeight));
  };

  const write = () => {
    if (!outcome) return;
    setStage("writing");
    carryOutHandoff(context, row, choices, outcome).then(
      (d) => {
        setDone(d);
        setOutcome(d);
        setTop(0);
        setStage("done");
        props.onDone(d);
      },
      (e) => {
        setError(messageOf(e));
        setStage("plan");
      },
    );
  };

  useKeys((input, key) => {
    if (input === "q" && stage !== "writing") return props.onQuit();
    if (input === "?") return props.onHelp(PLAN_KEYS);
    if (key.downArrow || input === "j") scroll(top + 1);
    else if (key.upArrow || input === "k") scroll(top - 1);
    else if (key.pageDown || input === " ") scroll(top + bodyHeight);
    else if (key.pageUp) scroll(top - bodyHeight);
    if (stage === "plan") {
      if (key.escape) props.onBack();
      else if (key.return) {
        if (!allSeen) scroll(top + bodyHeight);
        else if (!outcome?.refusal) {
          setFocus("write");
          setStage("confirm");
        }
      }
    } else if (stage === "confirm") {
      if (key.escape) setStage("plan");
      else if (key.leftArrow || key.rightArrow || key.tab) {
        setFocus((f) => (f === "write" ? "back" : "write"));
      } else if (key.return) focus === "write" ? write() : setStage("plan");
      else if (input === "y") write();
    } else if (stage === "done") {
      if (key.escape || key.return) props.onFinished();
      else if (input === "u") props.onUndo();
    } else if (key.escape && stage === "planning") props.onBack();
  }, active);

  const visible = text.slice(top, top + bodyHeight);
  const status = error
    ? <Text color="red" wrap="truncate-end">{clip(field(error), width)}</Text>
    : stage === "planning"
    ? <Text dimColor>planning (read-only)…</Text>
    : stage === "writing"
    ? <Text color="yellow">writing…</Text>
    : stage === "confirm"
    ? (
      <Text wrap="truncate-end">
        {"Write this handoff?  "}
        <Text inverse={focus === "write"} color="green">
          {focus === "write" ? "› [ Hand off ]" : "  [ Hand off ]"}
        </Text>{"  "}
        <Text inverse={focus === "back"}>
          {focus === "back" ? "› [ Back to the plan ]" : "  [ Back to the plan ]"}
        </Text>
      </Text>
    )
    : stage === "done"
    ? (
      <Text color="green" wrap="truncate-end">
        {clip("Done. Enter/Esc: back to the sessions · u: undo screen", width)}
      </Text>
    )
    : outcome?.refusal
    ? (
      <Text color="red" wrap="truncate-end">
        {clip(field(`Refused: ${outcome.refusal} (Esc: change the options)`), width)}
      </Text>
    )
    : (
      <Text color="cyan" wrap="truncate-end">
        {clip(
          allSeen
            ? "Enter: go to the confirm step (nothing is written yet) · Esc: back"
            : "Enter: next page of the plan",
          width,
        )}
      </Text>
    );
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate-end">
        {clip(`Hand off a ${row.summary.harness} session to ${choices.to}`, width)}
      </Text>
      <Box flexDirection="column" height={bodyHeight}>
        {visible.map((l, i) => <Text key={top + i} wrap="truncate-end">{l || " "}</Text>)}
      </Box>
      {status}
      <Footer keys={PLAN_KEYS} width={width} />
    </Box>
  );
}
