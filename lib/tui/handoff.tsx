/**
 * Handing a session off, step one: the target (only harnesses whose plan is not refused can be picked; the
 * others say why) and the options that apply to it. Every field is checked by planning, read-only.
 */
import { existsSync } from "node:fs";
import { useEffect, useRef, useState } from "react";
import { Box } from "ink";
import { Text } from "./colors.tsx";
import {
  findHarness,
  type HandoffOutcome,
  type Harness,
  parseContext,
  parseFit,
  type PermissionsChoice,
} from "../mod.ts";
import { type Detail, type HandoffChoices, planHandoff, type TuiContext } from "./data.ts";
import type { Row } from "./row.ts";
import { clip, field, wrapWords } from "./text.ts";
import { Footer } from "./footer.tsx";
import { type KeyHelp, useKeys } from "./keys.ts";
import { messageOf } from "../errors.ts";

export const HANDOFF_KEYS: KeyHelp[] = [
  { keys: "Enter", does: "choose / edit / show plan" },
  { keys: "Tab", does: "next field" },
  { keys: "Space", does: "toggle" },
];

type Probe = { outcome: HandoffOutcome } | { error: string };

export interface HandoffFormProps {
  context: TuiContext;
  row: Row;
  detail: Detail | undefined;
  width: number;
  height: number;
  active: boolean;
  onPlan(choices: HandoffChoices): void;
  onBack(): void;
  onQuit(): void;
  onHelp(keys: KeyHelp[]): void;
}

type FieldName =
  | "cwd"
  | "title"
  | "model"
  | "sessionId"
  | "permissions"
  | "fit"
  | "context"
  | "summarizeWith"
  | "stubOpenCalls"
  | "handshake"
  | "plan";

/** What each permissions choice means, as the form shows it. */
const PERMISSIONS: Record<PermissionsChoice, string> = {
  narrow: "no wider than the target's default",
  keep: "the source's, even where the target would ask (Space)",
};

const LABELS: Record<FieldName, string> = {
  cwd: "Directory",
  title: "Title",
  model: "Model",
  sessionId: "Session id",
  permissions: "Permissions",
  fit: "Fit to window",
  context: "Context window",
  summarizeWith: "Summarize with",
  stubOpenCalls: "Stub open calls",
  handshake: "Resume handshake",
  plan: "[ Show plan ]",
};

/** What a text field left empty means. */
const UNSET: Partial<Record<FieldName, string>> = {
  model: "(the target's default)",
  sessionId: "(a fresh id)",
  fit: "auto (summarize only if over the window)",
  context: "(the target's configuration, else the model's)",
  summarizeWith: "(no model: session-bridge's summary)",
};

/** How a target is pointed at another home: the flag the TUI is started with, or the harness's variable. */
function homeFix(home: Harness["home"]): string {
  const variable = home.subfolder ? `$${home.env} (the folder holding ${home.subfolder}/)` : `$${home.env}`;
  return `start with --${home.flag} DIR naming another ${home.describe}, or set ${variable}`;
}

export function HandoffForm(props: HandoffFormProps) {
  const { context, row, width, height, active } = props;
  const [probes, setProbes] = useState<Map<string, Probe>>(new Map());
  const [target, setTarget] = useState<string | undefined>(undefined);
  const [cursor, setCursor] = useState(0);
  const [choices, setChoices] = useState<HandoffChoices | undefined>(undefined);
  // Read through a ref: keys that arrive in one burst see the field the previous key opened.
  const [editing, setEditingState] = useState<FieldName | undefined>(undefined);
  const editingRef = useRef<FieldName | undefined>(undefined);
  const setEditing = (name: FieldName | undefined) => {
    editingRef.current = name;
    setEditingState(name);
  };
  const [draft, setDraftState] = useState("");
  const draftRef = useRef("");
  const setDraft = (next: string | ((d: string) => string)) => {
    draftRef.current = typeof next === "function" ? next(draftRef.current) : next;
    setDraftState(draftRef.current);
  };
  const [problem, setProblem] = useState("");

  // The session's own directory when it exists here, else the one the TUI was started in.
  const resumeDir = row.summary.cwd && existsSync(row.summary.cwd) ? row.summary.cwd : context.cwd;

  // Each target is planned once with the defaults: a refused plan makes the target unavailable, with its reason.
  useEffect(() => {
    let cancelled = false;
    for (const h of context.registry.harnesses) {
      planHandoff(context, row, { to: h.name, cwd: resumeDir, stubOpenCalls: true, handshake: true }).then(
        (outcome) => !cancelled && setProbes((p) => new Map(p).set(h.name, { outcome })),
        (e) => !cancelled && setProbes((p) => new Map(p).set(h.name, { error: messageOf(e) })),
      );
    }
    return () => {
      cancelled = true;
    };
  }, [row.key]);

  const harnesses = context.registry.harnesses;
  const usable = harnesses.filter((h) => {
    const p = probes.get(h.name);
    return p && "outcome" in p && !p.outcome.refusal;
  });
  const unavailable = harnesses.filter((h) => probes.has(h.name) && !usable.includes(h));
  const openCalls = props.detail?.inspection.pending.openToolCalls.length ?? 0;
  const fields: FieldName[] = [
    "cwd",
    "title",
    "model",
    "sessionId",
    "permissions",
    "fit",
    "context",
    "summarizeWith",
    ...(openCalls ? ["stubOpenCalls" as const] : []),
    "handshake",
    "plan",
  ];

  const chooseTarget = (name: string) => {
    const probe = probes.get(name);
    if (!probe || !("outcome" in probe)) return;
    setTarget(name);
    setChoices({
      to: name,
      cwd: probe.outcome.target.cwd,
      stubOpenCalls: true,
      handshake: true,
      permissions: "narrow",
    });
    // Focus lands on the screen's action: the defaults are valid, so Enter shows the plan.
    setCursor(fields.length - 1);
  };

  const commitEdit = (name: FieldName, value: string) => {
    if (!choices) return;
    // What the CLI would refuse is refused here, with its words, before any plan is made of it.
    const check: Partial<Record<FieldName, (v: string) => unknown>> = {
      sessionId: (v) => context.registry.harnesses.find((h) => h.name === choices.to)?.store.checkId(v),
      fit: parseFit,
      context: parseContext,
      summarizeWith: (v) => findHarness(context.registry, v),
    };
    if (value) {
      try {
        check[name]?.(value);
      } catch (e) {
        setProblem(messageOf(e));
        return;
      }
    }
    setProblem("");
    setChoices({ ...choices, [name]: value || undefined });
    setEditing(undefined);
  };

  useKeys((input, key) => {
    const editing = editingRef.current;
    if (editing) {
      if (key.return) commitEdit(editing, draftRef.current);
      else if (key.escape) setEditing(undefined);
      else if (key.backspace || key.delete) setDraft((d) => d.slice(0, -1));
      else if (input && !key.ctrl && !key.meta) setDraft((d) => d + input);
      return;
    }
    const count = target ? fields.length : usable.length;
    if (key.downArrow || input === "j" || key.tab) setCursor((c) => (c + 1) % Math.max(1, count));
    else if (key.upArrow || input === "k") {
      setCursor((c) => (c - 1 + Math.max(1, count)) % Math.max(1, count));
    } else if (key.escape) {
      if (target) {
        // Back on the list of targets, the cursor is on the one that was chosen.
        setCursor(Math.max(0, usable.findIndex((h) => h.name === target)));
        setTarget(undefined);
      } else props.onBack();
    } else if (input === "?") props.onHelp(HANDOFF_KEYS);
    else if (input === "q") props.onQuit();
    else if (!target) {
      if (key.return && usable[cursor]) chooseTarget(usable[cursor].name);
    } else if (choices) {
      const name = fields[cursor]!;
      if (name === "plan" && key.return) props.onPlan(choices);
      else if (name === "permissions" && (key.return || input === " ")) {
        setChoices({ ...choices, permissions: choices.permissions === "keep" ? "narrow" : "keep" });
      } else if ((name === "stubOpenCalls" || name === "handshake") && (key.return || input === " ")) {
        setChoices({ ...choices, [name]: !choices[name] });
      } else if (
        key.return && name !== "plan" && name !== "permissions" && name !== "stubOpenCalls" &&
        name !== "handshake"
      ) {
        setDraft(choices[name] ?? "");
        setEditing(name);
      }
    }
  }, active);

  const line = (text: string, extra: { inverse?: boolean; color?: string; dim?: boolean } = {}) => (
    <Text
      wrap="truncate-end"
      inverse={extra.inverse ?? false}
      dimColor={extra.dim ?? false}
      {...(extra.color ? { color: extra.color } : {})}
    >
      {clip(text, width)}
    </Text>
  );
  const source = `${row.summary.harness} ${field(row.summary.title ?? row.summary.id)}`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      {line(`Hand off: ${source}`)}
      {line("")}
      {!target && (
        <Box flexDirection="column" flexGrow={1}>
          {line("Target harness:")}
          {usable.map((h, i) => (
            <Box key={h.name}>
              {line(
                `${i === cursor ? "› " : "  "}${h.title} (${h.name})${
                  h.name === row.summary.harness ? ", a copy in the same harness" : ""
                }`,
                {
                  inverse: i === cursor,
                },
              )}
            </Box>
          ))}
          {probes.size < harnesses.length && line("  checking the targets…", { dim: true })}
          {unavailable.map((h) => {
            const p = probes.get(h.name)!;
            const why = "error" in p ? p.error : p.outcome.refusal ?? "";
            // The whole reason, wrapped, and what would make the target usable: it is read to be acted on.
            return (
              <Box key={h.name} flexDirection="column">
                {wrapWords(field(`  ${h.title}: not available: ${why}`), width).map((l, i) => (
                  <Text key={i} dimColor>{l}</Text>
                ))}
                {wrapWords(field(`    fix: ${homeFix(h.home)}`), width).map((l, i) => (
                  <Text key={i} color="yellow">{l}</Text>
                ))}
              </Box>
            );
          })}
          {unavailable.length > 0 &&
            line("  session-bridge doctor says what each harness needs.", { dim: true })}
        </Box>
      )}
      {target && choices && (
        <Box flexDirection="column" flexGrow={1}>
          {line(`Target: ${harnesses.find((h) => h.name === target)?.title ?? target}`)}
          {fields.map((name, i) => {
            const value = name === "plan"
              ? ""
              : name === "permissions"
              ? PERMISSIONS[choices.permissions ?? "narrow"]
              : name === "stubOpenCalls" || name === "handshake"
              ? choices[name] ? "yes" : "no"
              : editing === name
              ? `${draft}█`
              : choices[name] ?? UNSET[name] ?? "(the source's)";
            return (
              <Box key={name}>
                {line(field(`${i === cursor && !editing ? "› " : "  "}${LABELS[name].padEnd(18)} ${value}`), {
                  inverse: i === cursor && !editing,
                  ...(editing === name ? { color: "cyan" } : {}),
                })}
              </Box>
            );
          })}
          {problem && line(field(problem), { color: "red" })}
          {openCalls > 0 &&
            line(`${openCalls} tool calls were left open; stubbing answers each with "interrupted".`, {
              dim: true,
            })}
        </Box>
      )}
      <Footer keys={HANDOFF_KEYS} width={width} />
    </Box>
  );
}
