/**
 * What the TUI knows of the stores, through the library API only (lib/mod.ts): the listing with each row's size
 * and live marker, a session read on demand, plans, handoffs and undos (recorded in the audit trail as the CLI's
 * are). Nothing here renders.
 */
import { statSync } from "node:fs";
import {
  auditHandoff,
  auditUndo,
  type BrokenStore,
  engineSummarizer,
  findHarness,
  type HandedOff,
  handoff,
  type HandoffOutcome,
  type HandoffReplay,
  type HandoffRequest,
  type Homes,
  type Inspection,
  inspection,
  type LedgerEntry,
  listByStore,
  load,
  newerFirst,
  parseContext,
  parseFit,
  plan,
  type Registry,
  type Session,
  type SessionSummary,
  soleWritersOf,
  undo,
  undoable,
  type UndoOutcome,
} from "../mod.ts";
import { heldOpen } from "../io/held-open.ts";
import type { Feedback, PermissionsChoice, ReadLimits } from "../mod.ts";
import type { Row } from "./row.ts";
import { type Ends, keptEnds } from "./search.ts";

/** Where the stores are and what the environment says, read once by the CLI and passed down. */
export interface TuiContext {
  registry: Registry;
  homes: Homes;
  bridgeHome: string;
  env: NodeJS.ProcessEnv;
  targetVersions: Readonly<Record<string, string>>;
  /** The limits every session is read with (the CLI's, from its environment); absent, the defaults. */
  limits?: ReadLimits;
  /**
   * Where the library's long steps and notices go (the App's status line, which sets it); absent, nowhere.
   */
  feedback?: Feedback;
  /** The directory the TUI was started in (the "this directory" narrowing). */
  cwd: string;
  now: () => Date;
  /**
   * Where a warning goes (an audit trail that could not be written): not the screen the TUI is drawing. The CLI
   * keeps them and prints them once the TUI has closed; absent, stderr.
   */
  warn?: (line: string) => void;
  /**
   * A plan as the command line that carries it out (the CLI's flags: lib/cli/replay.ts); the plan screen shows
   * it. Absent (a front end without the CLI), the screen leaves that line out.
   */
  commandLine?: (replay: HandoffReplay) => string;
}

/**
 * A session is live when its file (or, in a shared database, its row) changed within this long: a harness is
 * writing it now. A session file another process holds open is live too (on Linux: see listingsOf).
 */
export const LIVE_WINDOW_MS = 60_000;

export interface Listing {
  /** Newest first, across the stores listed so far. */
  rows: Row[];
  broken: BrokenStore[];
  /** Stores still being listed (harness names): the picker says so rather than showing them as empty. */
  pending: string[];
}

/**
 * The listing started now, before the screen's code loads: the first store is being read while Ink and React
 * load and draw, and the picker (which takes the iterator) gets every listing from the first on.
 */
export function startListing(context: TuiContext): AsyncIterator<Listing> {
  const listings = listingsOf(context);
  let first: Promise<IteratorResult<Listing>> | undefined = listings.next();
  return {
    next: () => {
      const next = first ?? listings.next();
      first = undefined;
      return next;
    },
  };
}

/** `<database>#<id>`: a session that is a set of rows in a database shared with other sessions. */
function fileOf(path: string): { file: string; shared: boolean } {
  const hash = path.lastIndexOf("#");
  return hash > 0 ? { file: path.slice(0, hash), shared: true } : { file: path, shared: false };
}

/** What the picker shows before any store has answered: every store still listing. */
export function pendingListing(context: TuiContext): Listing {
  return { rows: [], broken: [], pending: context.registry.harnesses.map((h) => h.name) };
}

/**
 * The listing as it grows: the stores listed one at a time (listByStore), and after each the listing so far
 * (that store's rows merged in newest first, or its failure named), so the picker draws the quick stores
 * without waiting for the slowest. The last one yielded has nothing pending.
 */
export async function* listingsOf(context: TuiContext): AsyncGenerator<Listing> {
  let listing = pendingListing(context);
  const now = context.now().getTime();
  const stats = new Map<string, { size: number; mtime: number } | undefined>();
  const statOf = (file: string) => {
    if (!stats.has(file)) {
      try {
        const s = statSync(file);
        stats.set(file, { size: s.size, mtime: s.mtimeMs });
      } catch {
        stats.set(file, undefined);
      }
    }
    return stats.get(file);
  };
  const rowOf = (summary: SessionSummary): Row => {
    const { file, shared } = fileOf(summary.path);
    const stat = statOf(file);
    // A database changes for every session in it: a row is live by its own update time, a file by its mtime.
    const changed = shared ? Date.parse(summary.updatedAt ?? "") : stat?.mtime ?? Number.NaN;
    return {
      key: `${summary.harness}\u0000${summary.path}\u0000${summary.id}`,
      summary,
      ...(stat ? { size: stat.size } : {}),
      sharedFile: shared,
      live: Number.isFinite(changed) && now - changed >= -5_000 && now - changed < LIVE_WINDOW_MS,
    };
  };
  const { registry, homes, bridgeHome, feedback } = context;
  for await (const store of listByStore({ registry, homes, bridgeHome, ...(feedback ? { feedback } : {}) })) {
    const pending = listing.pending.filter((h) => h !== store.harness);
    listing = "broken" in store ? { ...listing, broken: [...listing.broken, store.broken], pending } : {
      rows: [...listing.rows, ...store.sessions.map(rowOf)].sort((a, b) => newerFirst(a.summary, b.summary)),
      broken: listing.broken,
      pending,
    };
    yield listing;
  }
  // Last, once every row is on screen: a session file another process holds open (a harness running it,
  // writing or not) is live too. Shared databases are not: the harness holds them for all their sessions.
  const quiet = listing.rows.filter((r) => !r.live && !r.sharedFile);
  const held = heldOpen(quiet.map((r) => r.summary.path));
  if (held.size) {
    listing = {
      ...listing,
      rows: listing.rows.map((r) => {
        const holder = r.sharedFile ? undefined : held.get(r.summary.path);
        return holder ? { ...r, live: true, heldBy: holder } : r;
      }),
    };
    yield listing;
  }
}

export interface Detail {
  session: Session;
  inspection: Inspection;
  firstPrompt?: string;
  lastMessage?: string;
}

const textOf = (message: Session["messages"][number]): string =>
  message.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");

/** The row's session, by its path in its harness (never by a reference another session could answer to). */
function loadSession(context: TuiContext, row: Row) {
  const { registry, homes, bridgeHome, limits, feedback } = context;
  return load({
    registry,
    homes,
    bridgeHome,
    limits,
    ...(feedback ? { feedback } : {}),
    ref: row.summary.path,
    from: row.summary.harness,
  });
}

export async function loadDetail(context: TuiContext, row: Row): Promise<Detail> {
  const { session } = await loadSession(context, row);
  return { session, inspection: inspection(session), ...endsOf(session) };
}

/** The first prompt the user typed and the last message with words in it. */
function endsOf(session: Session): Pick<Detail, "firstPrompt" | "lastMessage"> {
  const turns = session.messages.filter((m) => m.kind === "turn" && textOf(m).trim() !== "");
  const first = turns.find((m) => m.role === "user");
  const last = turns.at(-1);
  return {
    ...(first ? { firstPrompt: textOf(first) } : {}),
    ...(last ? { lastMessage: textOf(last) } : {}),
  };
}

/** A session read for the filter alone: its first and last message, the rest let go at once. */
export async function readEnds(context: TuiContext, row: Row): Promise<Ends> {
  const { session } = await loadSession(context, row);
  const { firstPrompt, lastMessage } = endsOf(session);
  return keptEnds(firstPrompt, lastMessage);
}

/** The options a handoff takes from the TUI's form: the CLI's flags by meaning. */
export interface HandoffChoices {
  to: string;
  cwd?: string;
  title?: string;
  model?: string;
  sessionId?: string;
  stubOpenCalls: boolean;
  handshake: boolean;
  /** How far the source's permission posture travels (the CLI's --permissions; default narrow). */
  permissions?: PermissionsChoice;
  /** The CLI's --fit and --context, as typed in the form (checked there; absent: auto, the window found). */
  fit?: string;
  context?: string;
  /** The CLI's --summarize-with: the harness whose model writes a fitted session's summary. */
  summarizeWith?: string;
}

/** The session by its reference (read again for each plan and for the handoff, as the CLI would). */
async function request(
  context: TuiContext,
  row: Row,
  choices: HandoffChoices,
): Promise<Omit<HandoffRequest, "dryRun">> {
  const summarizer = choices.summarizeWith
    ? await engineSummarizer(
      findHarness(context.registry, choices.summarizeWith),
      context.registry,
      { env: context.env, cwd: context.cwd },
      findHarness(context.registry, choices.to),
    )
    : undefined;
  return {
    registry: context.registry,
    homes: context.homes,
    bridgeHome: context.bridgeHome,
    env: context.env,
    targetVersions: context.targetVersions,
    limits: context.limits,
    ...(context.feedback ? { feedback: context.feedback } : {}),
    source: { ref: row.summary.path, from: row.summary.harness },
    to: choices.to,
    ...(choices.cwd ? { cwd: choices.cwd } : {}),
    ...(choices.title ? { title: choices.title } : {}),
    ...(choices.model ? { model: choices.model } : {}),
    ...(choices.sessionId ? { sessionId: choices.sessionId } : {}),
    stubOpenCalls: choices.stubOpenCalls,
    handshake: choices.handshake,
    ...(choices.permissions ? { permissions: choices.permissions } : {}),
    ...(choices.fit ? { fit: parseFit(choices.fit)! } : {}),
    ...(choices.context ? { context: parseContext(choices.context)! } : {}),
    ...(summarizer ? { summarizer } : {}),
  };
}

export async function planHandoff(
  context: TuiContext,
  row: Row,
  choices: HandoffChoices,
): Promise<HandoffOutcome> {
  return plan(await request(context, row, choices));
}

export async function carryOutHandoff(
  context: TuiContext,
  row: Row,
  choices: HandoffChoices,
  planned: HandoffOutcome,
): Promise<HandedOff> {
  // The id and directory the plan showed are the ones written: the plan on screen is exactly what is carried out.
  const done = await handoff(
    await request(context, row, { ...choices, sessionId: planned.target.id, cwd: planned.target.cwd }),
  );
  warnAll(context, done.warnings);
  auditHandoff(context.bridgeHome, done, "tui", warnOf(context));
  return done;
}

const ownersOf = (context: TuiContext) => soleWritersOf(context.registry, context.env);

/** Past handoffs that can still be undone, newest first. */
export function ledger(context: TuiContext): LedgerEntry[] {
  return undoable(context.bridgeHome).reverse();
}

export function planUndo(context: TuiContext, op: string, force: boolean): Promise<UndoOutcome> {
  return undo({ bridgeHome: context.bridgeHome, op, dryRun: true, force, soleWriter: ownersOf(context) });
}

export async function carryOutUndo(context: TuiContext, op: string, force: boolean): Promise<UndoOutcome> {
  const { bridgeHome, feedback } = context;
  const done = await undo({
    bridgeHome,
    op,
    force,
    soleWriter: ownersOf(context),
    ...(feedback ? { feedback } : {}),
  });
  warnAll(context, done.warnings);
  auditUndo(context.bridgeHome, done, "tui", warnOf(context));
  return done;
}

const warnOf = (context: TuiContext) => context.warn ?? ((line: string) => console.error(line));

/** What a handoff or undo could not record after it was made, shown as the CLI shows it. */
const warnAll = (context: TuiContext, warnings: string[]): void =>
  warnings.forEach((w) => warnOf(context)(`session-bridge: warning: ${w}`));
