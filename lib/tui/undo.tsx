/**
 * The undo ledger, newest first, with what each handoff wrote. Enter plans the undo (read-only) and asks to
 * confirm; a session resumed since the handoff is flagged, and its undo needs an explicit force (`f`).
 */
import { useEffect, useState } from "react";
import { Box } from "ink";
import { Text } from "./colors.tsx";
import type { LedgerEntry, UndoOutcome } from "../mod.ts";
import { carryOutUndo, ledger, planUndo, type TuiContext } from "./data.ts";
import { clip, field } from "./text.ts";
import { Footer } from "./footer.tsx";
import { type KeyHelp, useKeys } from "./keys.ts";
import { messageOf } from "../errors.ts";

export const UNDO_KEYS: KeyHelp[] = [
  { keys: "Enter", does: "undo (asks first)" },
  { keys: "f", does: "force (a resumed session)" },
  { keys: "y", does: "confirm" },
];

export interface UndoScreenProps {
  context: TuiContext;
  width: number;
  height: number;
  active: boolean;
  onBack(): void;
  onQuit(): void;
  onHelp(keys: KeyHelp[]): void;
  /** After each undo, with the operation undone. */
  onChanged(op: string): void;
}

type Stage =
  | { kind: "list" }
  | { kind: "planning"; op: string }
  | { kind: "confirm"; outcome: UndoOutcome; force: boolean }
  | { kind: "writing" }
  | { kind: "done"; outcome: UndoOutcome };

export function UndoScreen(props: UndoScreenProps) {
  const { context, width, height, active } = props;
  const [entries, setEntries] = useState<LedgerEntry[]>([]);
  const [error, setError] = useState("");
  const [cursor, setCursor] = useState(0);
  const [stage, setStage] = useState<Stage>({ kind: "list" });

  const reload = () => {
    try {
      setEntries(ledger(context));
    } catch (e) {
      setError(messageOf(e));
    }
  };
  useEffect(reload, []);
  const selected = entries[Math.min(cursor, entries.length - 1)];

  const plan = (op: string, force: boolean) => {
    setStage({ kind: "planning", op });
    setError("");
    planUndo(context, op, force).then(
      (outcome) => setStage({ kind: "confirm", outcome, force }),
      (e) => {
        setError(messageOf(e));
        setStage({ kind: "list" });
      },
    );
  };
  const carryOut = (op: string, force: boolean) => {
    setStage({ kind: "writing" });
    carryOutUndo(context, op, force).then(
      (outcome) => {
        setStage({ kind: "done", outcome });
        reload();
        props.onChanged(op);
      },
      (e) => {
        setError(messageOf(e));
        setStage({ kind: "list" });
      },
    );
  };

  useKeys((input, key) => {
    if (input === "q" && stage.kind !== "writing") return props.onQuit();
    if (input === "?") return props.onHelp(UNDO_KEYS);
    if (stage.kind === "list") {
      if (key.downArrow || input === "j") setCursor((c) => Math.min(entries.length - 1, c + 1));
      else if (key.upArrow || input === "k") setCursor((c) => Math.max(0, c - 1));
      else if (key.escape) props.onBack();
      else if (key.return && selected) plan(selected.op, false);
    } else if (stage.kind === "confirm") {
      const { outcome, force } = stage;
      if (key.escape) setStage({ kind: "list" });
      else if (outcome.refusal && input === "f" && !force) plan(outcome.entry.op, true);
      else if (!outcome.refusal && (input === "y" || key.return)) carryOut(outcome.entry.op, force);
    } else if (stage.kind === "done") {
      if (key.escape || key.return) setStage({ kind: "list" });
    }
  }, active);

  const line = (text: string, color?: string, inverse = false) => (
    <Text wrap="truncate-end" inverse={inverse} {...(color ? { color } : {})}>
      {clip(field(text), width) || " "}
    </Text>
  );
  const bodyHeight = Math.max(3, height - 4);
  let body: React.ReactNode;
  if (stage.kind === "confirm" || stage.kind === "done") {
    const { outcome } = stage;
    const e = outcome.entry;
    const lines = [
      `${e.op.slice(0, 8)}: ${e.source.harness} ${e.source.id} -> ${e.target.harness} ${e.target.id}`,
      ...outcome.plan.remove.map((p) => `${stage.kind === "done" ? "removed" : "remove"} ${p}`),
      ...outcome.plan.restore.map((r) => `${stage.kind === "done" ? "restored" : "restore"} ${r.path}`),
      ...outcome.plan.rows.map((r) =>
        `${stage.kind === "done" ? "deleted" : "delete"} rows in ${r.database}`
      ),
    ];
    body = (
      <Box flexDirection="column" height={bodyHeight}>
        {lines.slice(0, bodyHeight).map((l, i) => <Box key={i}>{line(l)}</Box>)}
      </Box>
    );
  } else {
    body = (
      <Box flexDirection="column" height={bodyHeight}>
        {entries.length === 0 && line("no handoffs to undo")}
        {entries.slice(0, bodyHeight).map((e, i) => (
          <Box key={e.op}>
            {line(
              `${i === cursor ? "› " : "  "}${e.at.slice(0, 16).replace("T", " ")}  ${
                e.op.slice(0, 8)
              }  ${e.source.harness} -> ${e.target.harness}  ${e.target.path}  (${e.written.length} files, ${e.rows.length} row sets)`,
              undefined,
              i === cursor,
            )}
          </Box>
        ))}
      </Box>
    );
  }
  const status = error
    ? line(error, "red")
    : stage.kind === "planning"
    ? line("checking what the undo would do…", "yellow")
    : stage.kind === "writing"
    ? line("undoing…", "yellow")
    : stage.kind === "done"
    ? line("Undone. Enter: back to the list", "green")
    : stage.kind === "confirm"
    ? stage.outcome.refusal
      ? line(
        `Resumed since the handoff: ${stage.outcome.refusal}. f: force (a copy is saved) · Esc: back`,
        "red",
      )
      : line(
        `Undo this${stage.force ? " with force (copies saved first)" : ""}? y/Enter: yes · Esc: no`,
        "cyan",
      )
    : line("Enter: undo the selected handoff (asks first) · Esc: back", "cyan");
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold>Undo a handoff (newest first)</Text>
      {body}
      {status}
      <Footer keys={UNDO_KEYS} width={width} />
    </Box>
  );
}
