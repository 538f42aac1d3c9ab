/**
 * The first screen: every session of every store, newest first, filtered as you type (fuzzy over title, first
 * and last message, directory and id), narrowed by harness (Tab) and to the current directory (`.`), with a
 * detail pane read lazily for the selected row only.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { Box } from "ink";
import { Text } from "./colors.tsx";
import type { Detail, Listing, TuiContext } from "./data.ts";
import type { Row } from "./row.ts";
import { loadDetail } from "./data.ts";
import { type Ends, endsMatch, keptEnds } from "./search.ts";
import { useMessageScan } from "./scan.ts";
import { ago, bytes, clip, field, fuzzy } from "./text.ts";
import { Footer } from "./footer.tsx";
import { anchoredWindow } from "./window.ts";
import { PICKER_HEADINGS, pickerLine } from "./columns.ts";
import { type KeyHelp, useKeys } from "./keys.ts";
import { messageOf } from "../errors.ts";
import { brokenStoreLine } from "../mod.ts";
import { canonicalCwd } from "../io/paths.ts";

export const PICKER_KEYS: KeyHelp[] = [
  { keys: "Enter", does: "read" },
  { keys: "/", does: "filter" },
  { keys: "h", does: "hand off" },
  { keys: "Tab", does: "harness" },
  { keys: ".", does: "this dir" },
  { keys: "u", does: "undo" },
  { keys: "r", does: "reload" },
];

export interface PickerProps {
  context: TuiContext;
  listing: Listing;
  width: number;
  height: number;
  /** Details already read, by row key (kept by the app so going back does not read them again). */
  details: Map<string, Detail | Error>;
  onDetail(key: string, detail: Detail | Error): void;
  /** First and last messages read for the filter, by row key (kept by the app, like details). */
  ends: ReadonlyMap<string, Ends>;
  onEnds(read: [key: string, ends: Ends][]): void;
  onOpen(row: Row): void;
  onHandoff(row: Row): void;
  onUndo(): void;
  onReload(): void;
  onQuit(): void;
  onHelp(keys: KeyHelp[]): void;
  active: boolean;
}

/**
 * How well a row matches the filter (lower is better), or undefined: fuzzy over its short fields (title,
 * directory, id), and as a plain substring over its first and last message once they are read (for its
 * detail pane or by the filter's scan).
 */
function match(query: string, row: Row, ends: Ends | undefined): number | undefined {
  const s = row.summary;
  const scores = [s.title, s.cwd, s.id].flatMap((f) => {
    const score = f ? fuzzy(query, f) : undefined;
    return score === undefined ? [] : [score];
  });
  if (ends && endsMatch(query, ends)) scores.push(0.5);
  return scores.length ? Math.min(...scores) : undefined;
}

const messagesOf = (
  d: Detail | Error | undefined,
) => (d && !(d instanceof Error) ? d.inspection.messages : undefined);

export function Picker(props: PickerProps) {
  const { context, listing, width, height, details, active } = props;
  const [query, setQuery] = useState("");
  // A mode read through a ref: keys that arrive in one burst (a paste, tmux) see the mode the previous key set.
  const [typing, setTypingState] = useState(false);
  const typingRef = useRef(false);
  const setTyping = (on: boolean) => {
    typingRef.current = on;
    setTypingState(on);
  };
  const [harness, setHarness] = useState<string | undefined>(undefined);
  const [hereOnly, setHereOnly] = useState(false);
  // Until the user moves, the cursor stays on the first (newest) row, whichever store it comes from. Once
  // they move, the selection is that row, not a place: rows arriving from a slower store (or matched by
  // their messages) never move it to another session, and it stays on the line it was drawn on.
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const anchor = useRef<number | undefined>(undefined);
  const here = useMemo(() => canonicalCwd(context.cwd), [context.cwd]);
  const harnesses = useMemo(() => context.registry.harnesses.map((h) => h.name), [context.registry]);

  const endsOf = (row: Row): Ends | undefined => {
    const d = details.get(row.key);
    return props.ends.get(row.key) ??
      (d && !(d instanceof Error) ? keptEnds(d.firstPrompt, d.lastMessage) : undefined);
  };
  const narrowed = useMemo(
    () =>
      listing.rows.filter((r) =>
        (harness === undefined || r.summary.harness === harness) && (!hereOnly || r.summary.cwd === here)
      ),
    [listing, harness, hereOnly, here],
  );
  const shown = useMemo(() => {
    if (!query) return narrowed;
    return narrowed
      .map((row, i) => ({ row, i, score: match(query, row, endsOf(row)) }))
      .filter((m): m is { row: Row; i: number; score: number } => m.score !== undefined)
      .sort((a, b) => a.score - b.score || a.i - b.i)
      .map((m) => m.row);
  }, [narrowed, query, details, props.ends]);
  const found = shown.findIndex((r) => r.key === chosen);
  const cursor = found >= 0 ? found : 0;
  const selected = shown[cursor];
  const choose = (index: number) => {
    anchor.current = undefined;
    setChosen(shown[Math.max(0, Math.min(shown.length - 1, index))]?.key);
  };
  // A session opened or handed off stays the selection when the list is read again (after a handoff, the copy
  // may be the newest row): back on the picker, the cursor is on the session the user left it for.
  const pin = (row: Row) => setChosen(row.key);
  const restart = () => {
    anchor.current = undefined;
    setChosen(undefined);
  };

  // The detail pane reads the selected session only, and only once. While stores are still listing, only a
  // row the user chose: the first row changes as stores arrive, and each read would slow the listing down.
  const settled = listing.pending.length === 0 || found >= 0;
  useEffect(() => {
    if (!selected || !settled || details.has(selected.key)) return;
    let cancelled = false;
    loadDetail(context, selected).then(
      (d) => !cancelled && props.onDetail(selected.key, d),
      (e) => !cancelled && props.onDetail(selected.key, new Error(messageOf(e))),
    );
    return () => {
      cancelled = true;
    };
  }, [selected?.key, settled]);

  // Too few matches by the short fields: the filter reads the first and last message of the sessions that
  // did not match (newest first), until a screenful below the cursor matches; a new filter stops the old.
  const detailHeight = 7;
  // The lines around the list: the title, the filter, the column headings and the keys.
  const chromeHeight = 4;
  const page = Math.max(3, height - detailHeight - chromeHeight);
  const wanted = (Math.floor(cursor / page) + 1) * page;
  const scanning = useMessageScan({ context, query, narrowed, shown, wanted, endsOf, onEnds: props.onEnds });

  useKeys((input, key) => {
    if (typingRef.current) {
      if (key.return || key.escape || key.downArrow || key.upArrow) setTyping(false);
      else if (key.backspace || key.delete) setQuery((q) => q.slice(0, -1));
      else if (input && !key.ctrl && !key.meta) setQuery((q) => q + input);
      if (!key.upArrow && !key.downArrow) {
        restart();
        return;
      }
    }
    const move = (by: number) => choose(cursor + by);
    if (key.downArrow || input === "j") move(1);
    else if (key.upArrow || input === "k") move(-1);
    else if (key.pageDown) move(listHeight);
    else if (key.pageUp) move(-listHeight);
    else if (input === "/") setTyping(true);
    else if (key.escape && query) setQuery("");
    else if (key.tab) {
      const next = harness === undefined ? 0 : harnesses.indexOf(harness) + 1;
      setHarness(harnesses[next]);
      restart();
    } else if (input === ".") {
      setHereOnly((h) => !h);
      restart();
    } else if (key.return && selected) {
      pin(selected);
      props.onOpen(selected);
    } else if (input === "h" && selected) {
      pin(selected);
      props.onHandoff(selected);
    } else if (input === "u") props.onUndo();
    else if (input === "r") props.onReload();
    else if (input === "?") props.onHelp(PICKER_KEYS);
    else if (input === "q") props.onQuit();
  }, active);

  const stillListing = listing.pending.length
    ? [`listing… ${listing.pending.join(", ")} (their sessions appear as they are read)`]
    : [];
  const searching = scanning
    ? [`reading first and last messages for the filter: ${scanning.read} of ${scanning.of} sessions…`]
    : [];
  const notices = [...stillListing, ...searching, ...listing.broken.map(brokenStoreLine)];
  const listHeight = Math.max(3, height - detailHeight - chromeHeight - notices.length);
  const { top, visible } = anchoredWindow(shown, cursor, listHeight, anchor.current);
  // While a re-read list has not brought the chosen row back yet, its line is kept for when it does.
  if (found >= 0) anchor.current = cursor - top;
  else if (chosen === undefined) anchor.current = undefined;
  const now = context.now();
  const filterLine = `${typing ? "/" : "filter:"} ${query}${typing ? "█" : ""}`;
  const narrowing = [harness ?? "all harnesses", hereOnly ? "this directory" : "all directories"].join(", ");
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate-end">
        {clip(`session-bridge · ${shown.length} of ${listing.rows.length} sessions · ${narrowing}`, width)}
      </Text>
      <Text wrap="truncate-end" color={typing ? "cyan" : undefined}>{clip(field(filterLine), width)}</Text>
      {notices.map((notice) => (
        <Text key={notice} color="yellow" wrap="truncate-end">{clip(field(notice), width)}</Text>
      ))}
      <Text bold wrap="truncate-end">{pickerLine(PICKER_HEADINGS, width)}</Text>
      <Box flexDirection="column" height={listHeight}>
        {visible.length === 0 && (
          <Text dimColor>
            {listing.rows.length
              ? "no session matches"
              : listing.pending.length
              ? "listing…"
              : "no sessions found"}
          </Text>
        )}
        {visible.map((row) => {
          const s = row.summary;
          const isSelected = row.key === selected?.key;
          const line = pickerLine({
            marks: `${isSelected ? "›" : " "}${row.live ? "●" : " "}`,
            harness: s.harness,
            title: field(s.title ?? "(untitled)"),
            directory: field(s.cwd ?? ""),
            updated: ago(s.updatedAt, now),
            messages: String(s.messages ?? messagesOf(details.get(row.key)) ?? ""),
            size: `${bytes(row.size)}${row.sharedFile ? "*" : ""}`,
          }, width);
          return <Text key={row.key} inverse={isSelected} wrap="truncate-end">{line}</Text>;
        })}
      </Box>
      <DetailPane
        row={selected}
        detail={selected ? details.get(selected.key) : undefined}
        waiting={!settled}
        width={width}
      />
      <Footer keys={PICKER_KEYS} width={width} />
    </Box>
  );
}

function DetailPane(
  { row, detail, waiting, width }: {
    row: Row | undefined;
    detail: Detail | Error | undefined;
    /** Not read yet: the stores are still listing and the row was not chosen. */
    waiting: boolean;
    width: number;
  },
) {
  const line = (text: string) => <Text wrap="truncate-end">{clip(text, width)}</Text>;
  if (!row) return <Box height={7} />;
  const s = row.summary;
  const live = row.heldBy
    ? ` · live (open in ${field(row.heldBy.command)}, pid ${row.heldBy.pid})`
    : row.live
    ? " · live (changed in the last minute)"
    : "";
  const head = `${s.harness} ${field(s.id)}${live}${
    row.sharedFile ? " · * size of the shared database" : ""
  }`;
  if (detail === undefined) {
    return (
      <Box
        flexDirection="column"
        height={7}
        borderStyle="single"
        borderTop
        borderBottom={false}
        borderLeft={false}
        borderRight={false}
      >
        {line(head)}
        {line(waiting ? "read once every store is listed (or when you move to it)" : "reading…")}
      </Box>
    );
  }
  if (detail instanceof Error) {
    return (
      <Box flexDirection="column" height={7}>
        {line(head)}
        <Text color="red" wrap="truncate-end">{clip(field(`cannot read: ${detail.message}`), width)}</Text>
      </Box>
    );
  }
  const i = detail.inspection;
  const pending = i.pending.openToolCalls.length + i.pending.queuedInput.length;
  const drift = i.drift.length;
  const tokens = i.usage
    ? `${i.usage.inputTokens} in / ${i.usage.outputTokens} out tokens`
    : "tokens unknown";
  return (
    <Box flexDirection="column" height={7}>
      <Text dimColor wrap="truncate-end">{"─".repeat(width)}</Text>
      {line(head)}
      {line(`first: ${field(detail.firstPrompt ?? "")}`)}
      {line(`last:  ${field(detail.lastMessage ?? "")}`)}
      {line(
        `${i.messages} messages, ${i.toolCalls} tool calls · models: ${
          field(i.models.join(", ") || "unknown")
        } · ${tokens}`,
      )}
      {line(
        `pending: ${
          pending
            ? `${i.pending.openToolCalls.length} open calls, ${i.pending.queuedInput.length} queued`
            : "none"
        } · drift: ${drift ? `${drift} unknown shapes` : "none"}`,
      )}
    </Box>
  );
}
