/**
 * The contract every harness folder implements: one descriptor (its `index.ts`) says everything session-bridge
 * knows about a harness, and the CLI, the pipeline and certify only ever talk to it, so adding a harness is a
 * new folder and one registry line (lib/harnesses/registry.ts), never an edit to a command or a shared table.
 */
import type { ReasoningBlock, Session, Usage } from "../ir/schema.ts";
import type { SessionHead, SessionStream } from "../ir/stream.ts";
import type { Capabilities } from "../report/capabilities.ts";
import type { ReportEntry } from "../report/report.ts";
import type { Posture, PostureMapping } from "../posture/posture.ts";
import type { ConfigPlace, ConfiguredModel, ModelRules } from "./models.ts";
import type { KeyedRows } from "../store/rows.ts";
import type { ToolVocabulary } from "../tools/canonical.ts";
import type { HarnessDriver } from "../certify-kit/driver.ts";
import type { Rendered } from "../io/rendered.ts";
import type { ReadLimits } from "../io/jsonl.ts";
import type { Feedback } from "../io/progress.ts";
import type { RegistryKind } from "../registry/registry.ts";
import type { Sample } from "../samples.ts";

/** Every registered harness's store root by harness name, resolved once at the edge from flags and environment. */
export type Homes = Readonly<Record<string, string>>;

/** Where a harness keeps its store when the user names none, and how the user names one. */
export interface HomeSpec {
  /** The global flag, without its dashes: `claude-home` is given as `--claude-home DIR`. */
  flag: string;
  /** The harness's own environment variable for its home (printed resume commands set it when needed). */
  env: string;
  /**
   * The home is this folder of the one the variable names, as for a harness that keeps its data where the XDG
   * base directory variables say (`$XDG_DATA_HOME/opencode`); absent, the variable names the home itself.
   */
  subfolder?: string;
  /**
   * A variable of the harness's naming its store's file itself, absolute or relative to the home (OpenCode's
   * OPENCODE_DB): set, and no flag given, the home is that file.
   */
  storeFile?: string;
  /** The default folder under the user's home directory. */
  folder: string;
  /** What the home is, as the flag's help line says it ("Codex home"). */
  describe: string;
}

/** The start of a file, to tell which harness wrote it (see `FileRecognition`). */
export interface FileHead {
  /** The first 64 KiB, as UTF-8 (a long first line is cut). */
  text: string;
  /** The first non-empty line parsed, when it is a whole JSON object. */
  first?: Record<string, unknown>;
}

/** How `<session>` given as a path finds its harness. */
export interface FileRecognition {
  /** Endings that make a reference a path even without a `/` (".jsonl"). */
  extensions: readonly string[];
  /** Whether a file with this head is this harness's. */
  recognizes(head: FileHead): boolean;
  /**
   * The harness a file nobody recognizes goes to (exactly one harness of a registry should say so), so that
   * its reader gives the clear per-line error.
   */
  fallback?: boolean;
  /** Endings of its files that hold many sessions, one named as `<file>#<session id>` (a database). */
  sessionsInFile?: readonly string[];
  /**
   * The tables a SQLite database of its holds, for a harness whose store is one: a database is this harness's
   * when it has them all (two harnesses' databases share a header, and a schema's pages may sit anywhere).
   */
  tables?: readonly string[];
}

/**
 * How certify drives the harness through its own binary. The driver is imported only when certify runs, so
 * start-up and the other commands never load it.
 */
export interface CertifyHooks {
  /** The executable's name on PATH. */
  command: string;
  /** certify's flag naming the executable, without its dashes (`claude-bin`). */
  binFlag: string;
  driver(): Promise<HarnessDriver>;
  /**
   * Sessions the real harness wrote, one per captured version, embedded in the binary (`samples.json` in its
   * folder), that structure-only certification seeds from; absent, its driver's `sample(version)` gives one.
   */
  samples?(): Promise<readonly Sample[]>;
}

/**
 * What the harness tells the tool subprocesses it runs (a shell command the agent runs, such as
 * `session-bridge current`), as read in its own code and seen live (lib/pipeline/current.ts), and where it
 * looks for agent skills.
 */
export interface AgentFacts {
  /** Variables naming the running session's id, the most trusted first (CLAUDE_CODE_SESSION_ID). */
  sessionVariables: readonly string[];
  /**
   * Variables that say this harness runs us even where no session is named (versions that name none): then
   * its newest session in this directory is taken.
   */
  markers: readonly string[];
  /** The folder in its home that holds one folder per skill (`skills`: `<home>/skills/<name>/SKILL.md`). */
  skillsFolder: string;
  /**
   * The folder `skillsFolder` is in when it is not the harness's home, from the environment read at the edge:
   * OpenCode's home is its data folder, its skills are in its configuration folder. Absent: its home.
   */
  skillsBase?(env: NodeJS.ProcessEnv): string;
}

/** One non-interactive turn through the harness's own binary (lib/engines). */
export interface EngineTurn {
  prompt: string;
  /** The native id to continue; none starts a fresh, durable conversation. */
  resume?: string;
  /**
   * The id the fresh conversation is to have, chosen by the engine before the turn (only for a spec whose
   * `supports` has "session-id"; never with `resume`).
   */
  start?: string;
  model?: string;
  /** The reasoning effort (only for a spec whose `supports` has "effort"). */
  effort?: string;
  /** A conversation the harness does not keep (only for a spec whose `supports` has "ephemeral"). */
  ephemeral?: boolean;
}

/** How lib/engines drives the harness's binary for one turn: its argv, and how to read its output. */
export interface EngineSpec {
  /** The executable's name on PATH. */
  command: string;
  /**
   * What the binary can be asked beyond a prompt, a conversation and a model: a reasoning effort, a conversation
   * it does not keep (a flag of its own; `forget` is the other way), the id a new conversation is to have
   * ("session-id").
   */
  supports?: readonly ("effort" | "ephemeral" | "session-id")[];
  /** The arguments after the executable. */
  args(turn: EngineTurn): string[];
  /**
   * The most bytes of prompt the binary can be given, for one that takes it as an argument (lib/io/argument-
   * limit.ts); absent, the prompt goes on stdin, which has no such limit.
   */
  promptBytes?: number;
  /**
   * What the child reads on stdin, for a binary that takes its prompt there (OpenCode's `run` joins argument
   * words quoting each that holds a space); absent, stdin is closed.
   */
  input?(turn: EngineTurn): string;
  /** The native id a line of the child's output announces, as soon as it does (`stream` 1 stdout, 2 stderr). */
  idFrom(line: string, stream: 1 | 2): string | undefined;
  /** The agent's final answer, from the whole output. */
  replyFrom(stdout: string, stderr: string): string;
  /**
   * For a binary with no flag for a turn it does not keep: its own command that deletes a conversation, so a
   * turn asked not to be kept ("ephemeral") runs as a new conversation the harness then deletes itself.
   */
  forget?: ForgetCommand;
  /**
   * The reasoning effort the harness recorded for conversation `id` in its store at `home`, read after a turn:
   * what it ran with, whether asked or from its own configuration; absent where it records none.
   */
  effortOf?(id: string, home: string): string | undefined | Promise<string | undefined>;
  /**
   * A reader for one turn's output (it may keep state across lines: a message streamed in pieces), giving what
   * the agent did as each line arrives; absent when the binary's output says nothing but the answer.
   */
  liveEvents?(): (line: string, stream: 1 | 2) => LiveEvent[];
}

/** A harness's own command that deletes conversation `id`, and how its output says it did. */
export interface ForgetCommand {
  /** The arguments after the executable. */
  args(id: string): string[];
  /** Whether the command's output says the conversation is gone (some exit 0 when nothing was deleted). */
  deleted(result: { code: number | null; stdout: string; stderr: string }): boolean;
}

/** What an engine's turn did, read from the binary's output as it happens (lib/engines emits it as events). */
export type LiveEvent =
  | { kind: "tool_call"; tool: string; callId: string; arguments: string }
  | { kind: "tool_result"; callId: string; output: string; isError: boolean }
  | {
    kind: "model_response";
    model?: string;
    content?: string;
    /** Tokens as the IR counts them (`inputTokens` without the cached part). */
    usage?: Usage;
    /** The harness's own figure for the turn, when it gives one. */
    costUsd?: number;
  };

/** What a resume command is built from: the session handed off and where it went. */
export interface ResumeRequest {
  /** The id the target continues. */
  id: string;
  /** The folder the target continues in: the command changes to it first, so it works from anywhere. */
  cwd: string;
  /** The target's home: one other than its default is named through the harness's home variable. */
  home: string;
  /** The environment read at the edge: the user's home folder, against which the default home is known. */
  env: NodeJS.ProcessEnv;
  /** A model the command must name, when the target would not otherwise continue on it. */
  model?: string;
  /**
   * The source's permission posture by meaning, for a target whose sessions keep none (Gemini CLI's approval
   * mode is a flag of each run): its command states it.
   */
  posture?: Posture;
}

/** One row of `list`: enough to pick a session without reading it whole. */
export interface SessionSummary {
  harness: string;
  id: string;
  path: string;
  cwd?: string;
  title?: string;
  updatedAt?: string;
  /** Sessions Claude keeps under `<id>/subagents/` etc. are not listed as sessions of their own. */
  messages?: number;
  /** Archived by the harness (Codex `archived_sessions/`): still readable, hidden from its own picker. */
  archived?: boolean;
}

/**
 * A piece of a store's listing the cache keeps on its own (a Claude Code transcript; a Hermes store's
 * databases together): while nothing `list` reads of it changes, its stamp stays the same.
 */
export interface ListingPart {
  /** Unique in its store (a transcript's path). */
  key: string;
  stamp: string;
  list(): Promise<SessionSummary[]>;
}

export interface RenderOptions {
  /** The id the rendered session will carry. */
  id: string;
  cwd: string;
  title?: string;
  model?: string;
  /** The time the rendering is made; records without a source timestamp never get one later than this. */
  now: Date;
  /** Resume handshake text to append (already built from the report), or none with --no-handshake. */
  handshake?: string;
  /** Close open tool calls with synthetic interrupted results. */
  stubOpenCalls: boolean;
  /** The source's permission posture by meaning, for writers to express in their own words. */
  posture?: Posture;
  /** The target's home, so a writer can match the installed harness (format version, provider, model). */
  home?: string;
  /**
   * The environment read at the edge: the user's home folder, a harness's own variables (Claude Code's
   * CLAUDE_CODE_PROJECT_DIR_NAME). Writers read it here, never from process.env; absent, none is set.
   */
  env?: NodeJS.ProcessEnv;
  /** The version to write for when the target's home shows none (see StoreFacts.versionVariable). */
  targetVersion?: string;
  /** The limits a writer copying the source's own records reads them again with (default: DEFAULT_READ_LIMITS). */
  limits?: ReadLimits;
  /** Where reading the source's own records again reports how far it has got (default: nowhere). */
  feedback?: Feedback;
  /**
   * Same-harness records exactly as the source wrote them (export): nothing is adapted to a target store
   * (no provider, source or missing field changed).
   */
  verbatim?: boolean;
}

/** One file a handoff will create, with its content produced lazily so large sessions stream to disk. */
export interface PlannedFile {
  path: string;
  lines: () => AsyncIterable<string>;
  /**
   * A file of the harness's own that the handoff edits (an index it keeps, such as Gemini CLI's projects.json):
   * replaced whatever --force says, saved first so undo puts it back. Absent: a file of the session, which
   * only --force replaces.
   */
  edits?: boolean;
}

/** What a handoff will do, as plain data: what `--dry-run` prints and what the caller decides on. */
export interface PlanPreview {
  harness: string;
  id: string;
  /** The main file the target resumes from. */
  path: string;
  cwd: string;
  /** The files the handoff will create (their content is rendered only when the plan is committed). */
  files: string[];
  /** The command a user runs to continue, exactly as it works from any directory. */
  resumeCommand: string;
  /** Databases that will be written (and so backed up first). Empty for file-only targets. */
  databases: string[];
  /**
   * The rows the commit inserts (or replaces), by key: what the write-ahead intent names, so that recovery from
   * a crash can tell whether the commit happened. Absent for file-only targets.
   */
  rows?: KeyedRows[];
  /**
   * Lock folders of the harness's own (`<file>.lock`, the proper-lockfile convention) the commit holds while it
   * writes, made and stamped as lib/io/lock-folder.ts says: the intent names them, so that recovery from a kill
   * removes one the commit left (and not one the harness took over since). Absent: it holds none.
   */
  locks?: string[];
  /** What the handoff refused to do, if anything; set when the plan cannot be carried out. */
  refusal?: string;
  /** What the target store adds to the conversion report (e.g. which model it will continue with). */
  notes?: ReportEntry[];
}

/**
 * A handoff planned read-only: its preview, and `commit()` that carries it out. Everything commit needs was
 * captured when the plan was made, so a plan is a value that can be inspected, passed around and committed
 * (once) without any hidden state elsewhere.
 */
export interface HandoffPlan extends PlanPreview {
  /** Publishes files, registers rows. Undone on failure: nothing half-written. Refused if `refusal` is set. */
  commit(options: CommitOptions): Promise<HandoffResult>;
}

/** Rows a handoff inserted, as the undo ledger keeps them (storage describes rows generically). */
export type RegisteredRow = KeyedRows;

export interface CommitOptions {
  /** Replace an existing target session (it is backed up first). */
  force: boolean;
  /** Take an online backup of every database before writing (on unless --no-backup). */
  backup: boolean;
  /** This operation's own backup folder in session-bridge's folder, as its intent names it (handoffBackupDir). */
  backupFolder: string;
  /** Where the writes report how far they have got and a wait for a locked store is said (default: nowhere). */
  feedback?: Feedback;
  /** The time stamped on the lock folders the commit makes (`locks`), as its intent records it (default: now). */
  lockStamp?: number;
}

export interface HandoffResult {
  plan: PlanPreview;
  /** Files this handoff created (removed again by undo). */
  written: string[];
  /** Rows this handoff inserted (deleted again by undo). */
  rows: RegisteredRow[];
  /** Backups taken before writing: replaced files and databases. */
  backups: string[];
  /** Replaced files and where their previous content was saved (restored by undo). */
  replaced: { path: string; backup: string }[];
}

/**
 * What a harness is, in a few parts. Everything session-bridge knows about a harness is reached from here, so a
 * new harness is a folder of its own and one line in the built-in list (lib/harnesses/registry.ts); nothing
 * outside them names it (tests/harness-names.test.ts). The parts, each read by its own kind of consumer:
 *
 *   name, aliases, title  who it is: the words flags, listings, reports and help use (kept flat: every
 *                         consumer names the harness, and the registry keys on them)
 *   home                  where its store lives when the user names none, and the flag naming another
 *   files                 how a session given as a path is known to be its own
 *   conversation          what its sessions mean: control tags, tools, models, posture, reasoning, what it holds
 *   store                 its sessions on disk: facts now, the listing and the readers/writers loaded on first
 *                         use (lazyStore, lib/harnesses/lazy-store.ts)
 *   resumeCommand         how a user continues a session handed to it
 *   integrations          what other programs know of it: LazyBridge's alias kind, what it tells the commands it
 *                         runs, the engine, certify's driver
 *   demo                  its part in `session-bridge demo`'s sandbox: the sample it seeds, or the empty home a
 *                         handoff lands in
 */
export interface Harness {
  /** The name sessions, flags and reports use (lower case). */
  name: string;
  /** Other words `--to`/`--from` accept for it (lower case). */
  aliases: readonly string[];
  /** How people call it ("Claude Code"). */
  title: string;
  home: HomeSpec;
  files: FileRecognition;
  conversation: ConversationRules;
  store: HarnessStore;
  /**
   * The command a user pastes into any terminal to continue a session handed to this harness
   * (`cd <cwd> && [HOME_VARIABLE=<home>] <argv>`, see lib/harnesses/resume.ts); `plan()` prints it.
   */
  resumeCommand(request: ResumeRequest): string;
  integrations: Integrations;
  /** How `session-bridge demo` gives it a home in the sandbox; absent, an empty folder (the demo passes it by). */
  demo?: DemoHooks;
}

/** A harness's part in the demo, in the demo's words; its code is loaded when the demo runs. */
export interface DemoHooks {
  /** The step handing the sample to it: what the handoff writes in the sandbox ("rows in ... state.db"). */
  handoff: string;
  /** The step listing its store after the handoff ("Hermes's store now holds it"); absent, none. */
  listed?: string;
  seat(): Promise<DemoSeat>;
}

export interface DemoSeat {
  /**
   * Seeds `home` with the embedded sample session, recorded in `cwd`: the demo's source (the first harness of
   * the registry that has one). Returns the session's id and the model it ran on.
   */
  sample?(home: string, cwd: string): { id: string; model?: string };
  /** Makes `home` as the harness's first run leaves it, its configuration naming `model` where it keeps one. */
  firstRun?(home: string, model?: string): void;
}

/** What a harness's sessions mean, as the conversion reads and writes them. */
export interface ConversationRules {
  /**
   * Tags this harness treats as its own control messages (`<system-reminder>`): inside transcript text moving
   * to another harness, every registered harness's tags are made inert.
   */
  controlTags: readonly string[];
  /** Its permission words by meaning; none when it has no permission words a session records. */
  posture?: PostureMapping;
  /** Its tool names and arguments, by canonical kind. */
  tools: ToolVocabulary;
  /** Which model ids it can continue on, and its default. */
  models: ModelRules;
  /** Whether a reasoning proof in a session it wrote provably comes from the provider the block names. */
  provesReasoning(session: SessionHead, block: ReasoningBlock): boolean;
  /** What this harness's writer can hold (its reasoning provider among it); the loss report is computed against it. */
  capabilities: Capabilities;
}

/** What is known of a harness's store without loading its code: the descriptor holds these. */
export interface StoreFacts {
  /** The store root in its home (the folder or database a broken listing names). */
  locate(home: string): string;
  /** A fresh session id in this harness's own format (some derive it from the source session's start). */
  newId(now: Date, session?: SessionHead): string;
  /** Refuses an id this harness could not use (wrong format, unsafe as a path component). */
  checkId(id: string): string;
  /**
   * What a file of this harness (convert) drops of a session that the capability report cannot see: parts of a
   * same-harness source the format has no place for. Handoffs report theirs in the plan's notes.
   */
  fileLosses?(session: SessionStream): ReportEntry[];
  /**
   * The variable that names the version to write for when the target's home shows none
   * (SESSION_BRIDGE_<NAME>_VERSION): read at the edge, passed down as RenderOptions.targetVersion.
   */
  versionVariable?: string;
  /**
   * The harness's own command whose output `export` writes for a session it keeps in a database rather than in
   * a file of its own; absent, a session is a file and is copied record by record.
   */
  exportedAs?: string;
}

/**
 * A store's listing, exported as `listing` by a module of its own (not the store's): `list` loads no reader,
 * writer or configuration parser (tests/startup.test.ts).
 */
export interface StoreListing {
  list(home: string): Promise<SessionSummary[]> | SessionSummary[];
  /**
   * The store's listing in parts, each with a stamp of the files it reads (lib/io/file-stamp.ts), cheap to
   * take: a part whose stamp is unchanged is served from session-bridge's listing cache, the rest are read.
   * Absent, the store is always read whole.
   */
  listingParts?(home: string): Promise<ListingPart[]> | ListingPart[];
}

/** What a read is given by its caller instead of finding it set for the process. */
export interface ReadOptions {
  /** The longest record and the size from which a session streams (default: DEFAULT_READ_LIMITS). */
  limits?: ReadLimits;
  /** Where the read reports how far it has got (default: nowhere). */
  feedback?: Feedback;
}

/** A store's readers, writers and configuration parsers, exported as `access` by its store module. */
export interface StoreAccess {
  /** Reads a session file (or row set) into the IR. */
  read(path: string, options?: ReadOptions): Promise<Session>;
  /**
   * Reads a session to convert it, its live thread streamed from the file (or rows) as it is iterated, so a
   * session larger than memory converts; absent, `read` holds it.
   */
  open?(path: string, options?: ReadOptions): Promise<SessionStream>;
  /**
   * Renders a session into this harness's native lines, touching no store (its thread iterated once, or twice
   * for a line that holds the whole thread and must say first what it holds: see lib/io/rendered.ts).
   */
  render(session: SessionStream, options: RenderOptions): AsyncIterable<Rendered>;
  /** Decides where a handoff goes and what it writes, read-only; the plan's `commit()` carries it out. */
  plan(
    session: SessionStream,
    options: RenderOptions,
    home: string,
    force: boolean,
  ): HandoffPlan | Promise<HandoffPlan>;
  /**
   * The model this harness's own configuration in its home names, if any (see lib/pipeline/model.ts): the
   * configuration parsers load with the store, not at start-up.
   */
  configuredModel(
    home: string,
    place?: ConfigPlace,
  ): ConfiguredModel | undefined | Promise<ConfiguredModel | undefined>;
  /**
   * Why `database` may not be written now by anyone but the program that owns it (Hermes's gateway, the one
   * writer of its state.db while it runs), if so: one line saying what to stop. Asked by undo, as the plan
   * asks it for a handoff; absent, the store has no such owner.
   */
  soleWriter?(database: string, env: NodeJS.ProcessEnv): string | undefined;
}

/**
 * A harness's store as every consumer sees it: its facts at once, its listing and its access loaded on first
 * call (see lazyStore). Every method is there, whatever the store's modules leave out.
 */
export interface HarnessStore extends StoreFacts {
  list(home: string): Promise<SessionSummary[]>;
  /** The listing's parts for the cache, or undefined when the store is read whole (StoreListing.listingParts). */
  listingParts(home: string): Promise<ListingPart[] | undefined>;
  read(path: string, options?: ReadOptions): Promise<Session>;
  /** The session to convert: streamed where the store can (StoreAccess.open), else read whole. */
  open(path: string, options?: ReadOptions): Promise<SessionStream>;
  render(session: SessionStream, options: RenderOptions): AsyncIterable<Rendered>;
  plan(session: SessionStream, options: RenderOptions, home: string, force: boolean): Promise<HandoffPlan>;
  configuredModel(home: string, place?: ConfigPlace): Promise<ConfiguredModel | undefined>;
  soleWriter(database: string, env: NodeJS.ProcessEnv): Promise<string | undefined>;
}

/** What other programs know of the harness, and how they drive it. Each absent: that integration is not there. */
export interface Integrations {
  /**
   * The kind LazyBridge's alias registry files this harness's conversations under; absent: no alias (`@NAME`)
   * can name them.
   */
  registryKind?: RegistryKind;
  /** What it tells the commands it runs about itself, and where it looks for skills. */
  agent?: AgentFacts;
  /** How an engine runs one turn through its binary (loaded on first use). */
  engine?(): Promise<EngineSpec>;
  /** How certify runs it (which API family its fake model server speaks is the driver's). */
  certify?: CertifyHooks;
}
