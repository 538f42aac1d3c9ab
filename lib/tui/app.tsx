/**
 * The TUI: a stack of screens over the library API (picker → transcript → handoff → plan; undo from anywhere),
 * each kept as it was left while screens above it are shown, sized to the terminal and redrawn when it is
 * resized. Failures show as a message line, never a crash.
 */
import { PassThrough } from "node:stream";
import {
  Component,
  type ErrorInfo,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { Box, render, useApp, useInput, useWindowSize } from "ink";
import { ColorsOn, Text } from "./colors.tsx";
import type { HandedOff } from "../mod.ts";
import {
  type Detail,
  type HandoffChoices,
  type Listing,
  listingsOf,
  pendingListing,
  type TuiContext,
} from "./data.ts";
import type { Row } from "./row.ts";
import { Picker } from "./picker.tsx";
import type { Ends } from "./search.ts";
import { Transcript } from "./transcript.tsx";
import { HandoffForm } from "./handoff.tsx";
import { PlanScreen } from "./plan.tsx";
import { UndoScreen } from "./undo.tsx";
import { HelpScreen } from "./footer.tsx";
import { eachKey, type KeyHandler, type KeyHelp, KeyTarget, useKeys } from "./keys.ts";
import { clip, field } from "./text.ts";
import { messageOf } from "../errors.ts";
import { progressTracker, SHOWN_AFTER_MS } from "../io/progress-display.ts";

type Screen =
  | { kind: "transcript"; row: Row }
  | { kind: "handoff"; row: Row }
  | { kind: "plan"; row: Row; choices: HandoffChoices }
  | { kind: "undo" };

/** A screen on the stack, with the id it was pushed with. */
type Stacked = Screen & { id: number };

export interface AppProps {
  context: TuiContext;
  /** Fixed size (tests); default: the terminal's, following resizes. */
  size?: { columns: number; rows: number };
  /** How long a step runs before the status line shows it (tests: 0); default: a second, as on stderr. */
  progressAfterMs?: number;
  /** The listing already under way (startListing: the stores are read while Ink loads); default: started here. */
  listings?: AsyncIterator<Listing>;
  /** Called once the first sessions are on screen (the bench times this: the picker's first screen). */
  onFirstRows?(): void;
  /** Called once every store's sessions are on screen (the bench times this too). */
  onListed?(): void;
  /** Called after each handoff, so the CLI can print its resume command when the TUI closes. */
  onHandedOff?(done: HandedOff): void;
  /** Called after each undo with the operation undone (its resume command is no longer one to print). */
  onUndone?(op: string): void;
}

export function App(props: AppProps) {
  const window = useWindowSize();
  const size = props.size ?? window;
  const width = Math.max(40, size.columns);
  const height = Math.max(12, size.rows - 1);
  const { exit } = useApp();
  const [message, setMessage] = useState("");
  // The library's long steps (reading a session to plan, registering it) and its notices (a store locked by
  // a running harness) show on the status line: the screen is the TUI's, a line drawn on stderr would land
  // in the middle of it. They reach it through the context every call of the library is given.
  const [progress, setProgress] = useState<string | undefined>(undefined);
  const context = useMemo(() => {
    const tracker = progressTracker({ afterMs: props.progressAfterMs ?? SHOWN_AFTER_MS }, setProgress);
    const notice = (line: string) => {
      tracker.clear();
      setMessage(line);
    };
    return { ...props.context, feedback: { progress: tracker.listener, notice } };
  }, [props.context]);
  const [listing, setListing] = useState<Listing>(() => pendingListing(context));
  const [details, setDetails] = useState<Map<string, Detail | Error>>(new Map());
  const [ends, setEnds] = useState<ReadonlyMap<string, Ends>>(new Map());
  const [stack, setStack] = useState<Stacked[]>([]);
  const [help, setHelp] = useState<KeyHelp[] | undefined>(undefined);

  // Each reload starts a new listing; one still arriving from an earlier reload is dropped, not merged.
  const generation = useRef(0);
  // Resolved once the listing set last is on screen: each store's rows are drawn before the next store is
  // read (a listing holds the one thread while it runs).
  const drawn = useRef<() => void>(undefined);
  useEffect(() => drawn.current?.(), [listing]);
  const started = useRef(props.listings);
  const reload = useCallback(() => {
    const mine = ++generation.current;
    const listings = started.current ?? listingsOf(context);
    started.current = undefined;
    setListing(pendingListing(context));
    setDetails(new Map());
    setEnds(new Map());
    (async () => {
      for (let next = await listings.next(); !next.done; next = await listings.next()) {
        if (generation.current !== mine) return;
        const l = next.value;
        await new Promise<void>((resolve) => {
          drawn.current = resolve;
          setListing(l);
        });
      }
    })().catch((e) => {
      if (generation.current !== mine) return;
      setListing((l) => ({ ...l, pending: [] }));
      setMessage(`cannot list the stores: ${messageOf(e)}`);
    });
  }, [context]);
  useEffect(reload, []);
  // The bench times these: the first rows on screen (or every store answered with none), then every store.
  const firstRowsSeen = useRef(false);
  const allListedSeen = useRef(false);
  useEffect(() => {
    const done = listing.pending.length === 0;
    if (!firstRowsSeen.current && (listing.rows.length > 0 || done)) {
      firstRowsSeen.current = true;
      props.onFirstRows?.();
    }
    if (!allListedSeen.current && done) {
      allListedSeen.current = true;
      props.onListed?.();
    }
  }, [listing]);

  // Each screen pushed gets an id of its own, its React key: it keeps its state while it is on the stack.
  const pushed = useRef(0);
  const push = (s: Screen) => {
    setMessage("");
    setStack((st) => [...st, { ...s, id: ++pushed.current }]);
  };
  const pop = () => setStack((st) => st.slice(0, -1));
  const quit = () => exit();
  const onDetail = (key: string, d: Detail | Error) => setDetails((m) => new Map(m).set(key, d));

  // One listener from the first frame on: keys go to the help overlay, else to the screen on top.
  const keyTarget = useRef<KeyHandler | undefined>(undefined);
  useInput(eachKey((input, key) => (help ? setHelp(undefined) : keyTarget.current?.(input, key))));

  const bodyHeight = height - 1;
  const common = { width, height: bodyHeight, onQuit: quit, onHelp: setHelp };
  const screenOf = (s: Stacked, active: boolean): ReactNode => {
    if (s.kind === "transcript") {
      const d = details.get(s.row.key);
      return d === undefined
        ? (
          <TranscriptLoader
            {...common}
            active={active}
            context={context}
            row={s.row}
            onDetail={onDetail}
            onBack={pop}
          />
        )
        : d instanceof Error
        ? <Failure {...common} active={active} text={`cannot read this session: ${d.message}`} onBack={pop} />
        : (
          <Transcript
            {...common}
            active={active}
            session={d.session}
            onBack={pop}
            onHandoff={() => push({ kind: "handoff", row: s.row })}
          />
        );
    }
    if (s.kind === "handoff") {
      const d = details.get(s.row.key);
      return (
        <HandoffForm
          {...common}
          active={active}
          context={context}
          row={s.row}
          detail={d instanceof Error ? undefined : d}
          onBack={pop}
          onPlan={(choices) => push({ kind: "plan", row: s.row, choices })}
        />
      );
    }
    if (s.kind === "plan") {
      return (
        <PlanScreen
          {...common}
          active={active}
          context={context}
          row={s.row}
          choices={s.choices}
          onDone={(done) => {
            props.onHandedOff?.(done);
            reload();
          }}
          onBack={pop}
          onUndo={() => setStack([{ kind: "undo", id: ++pushed.current }])}
          onFinished={() => setStack([])}
        />
      );
    }
    return (
      <UndoScreen
        {...common}
        active={active}
        context={context}
        onBack={pop}
        onChanged={(op) => {
          props.onUndone?.(op);
          reload();
        }}
      />
    );
  };
  // Every screen on the stack stays mounted, the ones below the top (and all of them under the help overlay)
  // hidden: going back shows a screen exactly as it was left (the picker's filter, selection and scroll, the
  // handoff form's target and options), as a screen drawn again from scratch could not.
  const shown = help === undefined ? stack.length : -1;
  const layer = (depth: number, node: ReactNode, key: number) => (
    <Box key={key} display={depth === shown ? "flex" : "none"} flexDirection="column">{node}</Box>
  );
  const picker = (
    <Picker
      {...common}
      active={shown === 0}
      context={context}
      listing={listing}
      details={details}
      onDetail={onDetail}
      ends={ends}
      onEnds={(read) => setEnds((m) => new Map([...m, ...read]))}
      onOpen={(row) => push({ kind: "transcript", row })}
      onHandoff={(row) => push({ kind: "handoff", row })}
      onUndo={() => push({ kind: "undo" })}
      onReload={reload}
    />
  );
  return (
    <KeyTarget.Provider value={keyTarget}>
      <Box flexDirection="column" width={width} height={height}>
        {layer(0, picker, 0)}
        {stack.map((s, i) => layer(i + 1, screenOf(s, shown === i + 1), s.id))}
        {help && <HelpScreen keys={help} width={width} />}
        {message || !progress
          ? <Text color="red" wrap="truncate-end">{clip(field(message), width) || " "}</Text>
          : <Text color="yellow" wrap="truncate-end">{clip(progress, width)}</Text>}
      </Box>
    </KeyTarget.Provider>
  );
}

function TranscriptLoader(
  props: {
    context: TuiContext;
    row: Row;
    onDetail(key: string, d: Detail | Error): void;
    active: boolean;
    onBack(): void;
    onQuit(): void;
  },
) {
  useEffect(() => {
    import("./data.ts").then(({ loadDetail }) =>
      loadDetail(props.context, props.row).then(
        (d) => props.onDetail(props.row.key, d),
        (e) => props.onDetail(props.row.key, new Error(messageOf(e))),
      )
    );
  }, []);
  useKeys((input, key) => {
    if (key.escape) props.onBack();
    else if (input === "q") props.onQuit();
  }, props.active);
  return <Text>reading the session…</Text>;
}

function Failure(props: { text: string; width: number; active: boolean; onBack(): void; onQuit(): void }) {
  useKeys((input, key) => {
    if (key.escape || key.return) props.onBack();
    else if (input === "q") props.onQuit();
  }, props.active);
  return (
    <Box flexDirection="column">
      <Text color="red" wrap="truncate-end">{clip(field(props.text), props.width)}</Text>
      <Text dimColor>Esc: back</Text>
    </Box>
  );
}

/** A render failure shows as a message with a way out, never a stack trace on the user's terminal. */
export class Guard extends Component<{ children: ReactNode }, { error?: string }> {
  override state: { error?: string } = {};
  static getDerivedStateFromError(error: unknown) {
    return { error: messageOf(error) };
  }
  override componentDidCatch(_error: unknown, _info: ErrorInfo) {}
  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <GuardMessage text={this.state.error} />;
  }
}

function GuardMessage({ text }: { text: string }) {
  const { exit } = useApp();
  useInput(() => exit());
  return (
    <Box flexDirection="column">
      <Text color="red">{field(`session-bridge: the screen failed: ${text}`)}</Text>
      <Text>Press any key to quit. Nothing was written.</Text>
    </Box>
  );
}

export interface TuiIo {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** Draw in colour (default); off under NO_COLOR, as the CLI's entry read it. */
  colors?: boolean;
}

/** Runs the TUI full screen until the user quits; resolves with the handoffs made and not undone, to print. */
export async function runTui(
  context: TuiContext,
  listings: AsyncIterator<Listing>,
  { colors = true, ...io }: TuiIo = {},
): Promise<HandedOff[]> {
  let made: HandedOff[] = [];
  const app = render(
    <ColorsOn.Provider value={colors}>
      <Guard>
        <App
          context={context}
          listings={listings}
          onHandedOff={(d) => made.push(d)}
          onUndone={(op) => (made = made.filter((d) => d.op !== op))}
        />
      </Guard>
    </ColorsOn.Provider>,
    { alternateScreen: true, exitOnCtrlC: true, ...io },
  );
  await app.waitUntilExit();
  return made;
}

/**
 * Renders the picker for the bench's TUI open times (`listings` started before this module, Ink and React load): `firstRows` settles once the first sessions are on screen,
 * `listed` once every store's are, with the function that closes it. Without `io`, it renders into an 80×24
 * sink with no keyboard.
 */
export function openPicker(
  context: TuiContext,
  listings: AsyncIterator<Listing>,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream } = offscreen(),
  size = { columns: 80, rows: 24 },
): { firstRows: Promise<void>; listed: Promise<() => void> } {
  let firstRows!: () => void;
  let listed!: () => void;
  const opened = {
    firstRows: new Promise<void>((r) => (firstRows = r)),
    listed: new Promise<void>((r) => (listed = r)).then(() => () => app.unmount()),
  };
  const app = render(
    <App context={context} listings={listings} size={size} onFirstRows={firstRows} onListed={listed} />,
    { ...io, exitOnCtrlC: false, patchConsole: false },
  );
  return opened;
}

/** A terminal no one sees: output discarded, a keyboard that never types (Ink needs one that has raw mode). */
function offscreen(): { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream } {
  const stdout = Object.assign(new PassThrough(), { columns: 80, rows: 24, isTTY: true });
  stdout.resume();
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  return { stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream };
}
