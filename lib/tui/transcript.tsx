/**
 * One session read in place: every turn with its reasoning, tool calls and results, as display lines cut to the
 * width (only the visible window is drawn, so a 1 MB line costs rows, not a broken screen). Tool output is
 * collapsed to a few lines until opened (Enter on it, Tab for all); `/` searches, n/N go to the next match.
 */
import { useMemo, useRef, useState } from "react";
import { Box } from "ink";
import { Text } from "./colors.tsx";
import type { Block, Message, Session } from "../ir/schema.ts";
import { clip, field, lines, wrap } from "./text.ts";
import { Footer } from "./footer.tsx";
import { centeredWindow } from "./window.ts";
import { type KeyHelp, useKeys } from "./keys.ts";

export const TRANSCRIPT_KEYS: KeyHelp[] = [
  { keys: "/", does: "search" },
  { keys: "n N", does: "next/previous match" },
  { keys: "Enter", does: "open/close tool output" },
  { keys: "Tab", does: "open/close all tool output" },
  { keys: "h", does: "hand off" },
  { keys: "g G", does: "top/end" },
];

/** Lines of tool output shown while collapsed. */
const COLLAPSED_LINES = 3;

interface Section {
  /** Tool output that can be collapsed. */
  collapsible: boolean;
  heading?: string;
  color?: string;
  body: string[];
}

interface DisplayLine {
  text: string;
  section: number;
  heading: boolean;
  color?: string;
}

function blockSection(b: Block): Section {
  switch (b.type) {
    case "text":
      return { collapsible: false, body: lines(b.text) };
    case "reasoning":
      return { collapsible: false, heading: "[reasoning]", color: "magenta", body: lines(b.text) };
    case "tool_call":
      return {
        collapsible: true,
        heading: `[tool call ${field(b.name)} ${field(b.id)}]`,
        color: "yellow",
        body: lines(JSON.stringify(b.input, null, 2)),
      };
    case "tool_result":
      return {
        collapsible: true,
        heading: `[tool result ${field(b.callId)}${b.isError ? ", error" : ""}]`,
        color: b.isError ? "red" : "green",
        body: lines(b.content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n")),
      };
    case "image":
      return { collapsible: false, body: [field(`[image ${b.mediaType ?? b.url ?? ""}]`)] };
    case "raw":
      return {
        collapsible: true,
        heading: field(`[${b.harness} ${b.kind}]`),
        body: lines(JSON.stringify(b.value)),
      };
  }
}

function messageSections(m: Message): Section[] {
  const tags = [m.model, m.kind !== "turn" ? m.kind : undefined].filter(Boolean).join(", ");
  const head: Section = {
    collapsible: false,
    heading: field(`── ${m.role}${tags ? ` (${tags})` : ""}${m.timestamp ? ` · ${m.timestamp}` : ""}`),
    color: m.role === "user" ? "cyan" : m.role === "assistant" ? "blue" : undefined,
    body: [],
  };
  // Text a harness injected (environment, skills, AGENTS.md) is long and not the conversation: collapsed too.
  const context = (b: Block): Section =>
    b.type === "text"
      ? { collapsible: true, heading: "[injected by the harness]", color: "gray", body: lines(b.text) }
      : blockSection(b);
  return [head, ...m.blocks.map(m.kind === "context" ? context : blockSection)];
}

export function transcriptSections(session: Session): Section[] {
  return session.messages.flatMap(messageSections);
}

function layout(sections: Section[], width: number, open: Set<number>, allOpen: boolean): DisplayLine[] {
  const out: DisplayLine[] = [];
  sections.forEach((s, i) => {
    const color = s.color;
    if (s.heading) {
      const more = s.collapsible && s.body.length > COLLAPSED_LINES && !(allOpen !== open.has(i));
      const suffix = s.collapsible && s.body.length > COLLAPSED_LINES
        ? more ? ` (${s.body.length} lines, Enter opens)` : " (Enter closes)"
        : "";
      for (const piece of wrap(s.heading + suffix, width)) {
        out.push({ text: piece, section: i, heading: true, ...(color ? { color } : {}) });
      }
    }
    const collapsed = s.collapsible && !(allOpen !== open.has(i));
    const body = collapsed ? s.body.slice(0, COLLAPSED_LINES) : s.body;
    for (const line of body) {
      for (const piece of wrap(line, width)) out.push({ text: piece, section: i, heading: false });
    }
    if (collapsed && s.body.length > COLLAPSED_LINES) {
      out.push({
        text: `  … ${s.body.length - COLLAPSED_LINES} more lines`,
        section: i,
        heading: false,
        color: "gray",
      });
    }
  });
  return out;
}

export interface TranscriptProps {
  session: Session;
  width: number;
  height: number;
  active: boolean;
  onBack(): void;
  onHandoff(): void;
  onQuit(): void;
  onHelp(keys: KeyHelp[]): void;
}

export function Transcript(props: TranscriptProps) {
  const { session, width, height, active } = props;
  const sections = useMemo(() => transcriptSections(session), [session]);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [allOpen, setAllOpen] = useState(false);
  const [cursor, setCursor] = useState(0);
  const [query, setQuery] = useState("");
  // A mode read through a ref: keys that arrive in one burst (a paste, tmux) see the mode the previous key set.
  const [typing, setTypingState] = useState(false);
  const typingRef = useRef(false);
  const setTyping = (on: boolean) => {
    typingRef.current = on;
    setTypingState(on);
  };
  const [note, setNote] = useState("");
  const display = useMemo(() => layout(sections, width, open, allOpen), [sections, width, open, allOpen]);
  const bodyHeight = Math.max(3, height - 3);
  const at = Math.min(cursor, Math.max(0, display.length - 1));

  const find = (from: number, step: 1 | -1) => {
    if (!query) return;
    const q = query.toLowerCase();
    for (let n = 1; n <= display.length; n++) {
      const i = (from + step * n + display.length * n) % display.length;
      if (display[i]!.text.toLowerCase().includes(q)) {
        setCursor(i);
        setNote("");
        return;
      }
    }
    setNote(`no match for ${field(query)}`);
  };

  useKeys((input, key) => {
    if (typingRef.current) {
      if (key.return) {
        setTyping(false);
        find(at - 1, 1);
      } else if (key.escape) setTyping(false);
      else if (key.backspace || key.delete) setQuery((q) => q.slice(0, -1));
      else if (input && !key.ctrl && !key.meta) setQuery((q) => q + input);
      return;
    }
    const move = (by: number) => setCursor(Math.max(0, Math.min(display.length - 1, at + by)));
    if (key.downArrow || input === "j") move(1);
    else if (key.upArrow || input === "k") move(-1);
    else if (key.pageDown || input === " ") move(bodyHeight);
    else if (key.pageUp) move(-bodyHeight);
    else if (input === "g") setCursor(0);
    else if (input === "G") setCursor(display.length - 1);
    else if (input === "/") {
      setQuery("");
      setTyping(true);
    } else if (input === "n") find(at, 1);
    else if (input === "N") find(at, -1);
    else if (key.tab) {
      setAllOpen((a) => !a);
      setOpen(new Set());
    } else if (key.return) {
      const section = display[at]?.section;
      if (section !== undefined && sections[section]?.collapsible) {
        setOpen((o) => {
          const next = new Set(o);
          if (next.has(section)) next.delete(section);
          else next.add(section);
          return next;
        });
      }
    } else if (key.escape) props.onBack();
    else if (input === "h") props.onHandoff();
    else if (input === "?") props.onHelp(TRANSCRIPT_KEYS);
    else if (input === "q") props.onQuit();
  }, active);

  const { top, visible } = centeredWindow(display, at, bodyHeight);
  const title = `${session.meta.harness} · ${field(session.meta.title ?? session.meta.id)} · line ${
    at + 1
  }/${display.length}`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate-end">{clip(title, width)}</Text>
      <Box flexDirection="column" height={bodyHeight}>
        {visible.map((line, i) => (
          <Text
            key={top + i}
            wrap="truncate-end"
            inverse={top + i === at}
            bold={line.heading}
            {...(line.color ? { color: line.color } : {})}
          >
            {line.text || " "}
          </Text>
        ))}
      </Box>
      <Text wrap="truncate-end" color={typing ? "cyan" : "yellow"}>
        {clip(typing ? `/${field(query)}█` : note || (query ? `search: ${field(query)} (n/N)` : ""), width) ||
          " "}
      </Text>
      <Footer keys={TRANSCRIPT_KEYS} width={width} />
    </Box>
  );
}
