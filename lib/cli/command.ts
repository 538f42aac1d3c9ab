import type { Harness, Homes } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import type { OptionSpec, Parsed } from "./args.ts";
import type { Terminal } from "./terminal.ts";
import type { ReadLimits } from "../io/jsonl.ts";
import type { Feedback } from "../io/progress.ts";
import type { Output } from "./output.ts";

/** The process environment, read once at the entry point and passed down. */
export type Env = NodeJS.ProcessEnv;

export interface Context {
  /** The harnesses this run knows: every lookup by name, flag and listing goes through it. */
  registry: Registry;
  /** Every registered harness's home, by harness name. */
  homes: Homes;
  /** session-bridge's own folder (backups, undo ledger, provenance): $SESSION_BRIDGE_HOME, else ~/.session-bridge. */
  bridgeHome: string;
  /** The version to write for, by harness name, from each harness's version variable (SESSION_BRIDGE_CODEX_VERSION). */
  targetVersions: Readonly<Record<string, string>>;
  /** The longest record and the size from which a session streams, from SESSION_BRIDGE_MAX_RECORD and _STREAM_FROM. */
  limits: ReadLimits;
  json: boolean;
  /** The handoffs a crash interrupted were recovered before the command ran (see CommandEntry.touchesStores). */
  recovered: boolean;
  now: Date;
  env: Env;
  /** The person to ask before acting on a guess, if stdin and stdout are a terminal. */
  terminal: Terminal;
  /** Where this run prints: this process's stdout and stderr, or its caller's capture. */
  output: Output;
  /**
   * What the library's calls tell this run while they work: progress drawn on a terminal's stderr (none under
   * --json, off a terminal, or for a command that draws the screen itself), notices on stderr. Every library
   * call that can take long is given it.
   */
  feedback: Feedback;
  /**
   * The CLI itself, for a command that drives other commands (the demo) without importing the entry; they
   * print to `output` (default: this run's).
   */
  run(argv: string[], env: Env, output?: Output): Promise<number>;
}

/** Text that may name something of every registered harness (a flag each), so it is made from the registry. */
export type PerRegistry<T> = T | ((registry: Registry) => T);

export const forRegistry = <T>(value: PerRegistry<T>, registry: Registry): T =>
  typeof value === "function" ? (value as (registry: Registry) => T)(registry) : value;

/** "Claude Code, Codex CLI and Hermes Agent": how prose names some harnesses. */
export function titles(harnesses: readonly Harness[]): string {
  const all = harnesses.map((h) => h.title);
  return all.length > 1 ? `${all.slice(0, -1).join(", ")} and ${all.at(-1)}` : all.join("");
}

/** A command in the registry (commands/index.ts): its module is loaded only when it runs. */
export interface CommandEntry {
  name: string;
  /** The one line `--help` shows (made from the registry when it names harnesses). */
  summary: PerRegistry<string>;
  /** Reads or writes harness stores: a handoff a crash interrupted is recovered before it runs. */
  touchesStores?: boolean;
  /** Reads and renders a whole session: long work on a large one (see Host.beforeLongWork). */
  converts?: boolean;
  load(): Promise<Command>;
}

/** A command's flags and behaviour; its name and summary are in the registry (commands/index.ts). */
export interface Command {
  /** Full `--help` text after the usage line. */
  help: PerRegistry<string>;
  usage: PerRegistry<string>;
  /**
   * The arguments it takes, by name, in order (`session`; an optional one in brackets, `[operation]`): one
   * more is bad usage, said before the command runs.
   */
  arguments: readonly string[];
  options: OptionSpec;
  /** Flags the command takes once per registered harness (certify's `--claude-bin`, ...). */
  harnessOptions?(registry: Registry): OptionSpec;
  /**
   * It draws the whole terminal (the TUI) and shows progress and notices on it itself: a line drawn on stderr
   * meanwhile would land in the middle of its screen.
   */
  drawsScreen?: true;
  run(parsed: Parsed, context: Context): Promise<number>;
}

/**
 * The forms of lib/pipeline/reference.ts as help writes them, kept here so --help loads no pipeline module (a
 * test checks that every form in that table has its line).
 */
const REFERENCE_HELP: readonly (readonly [string, string])[] = [
  ["PATH", "a session file (DB#ID: one session of a file that holds many)"],
  ["current", "the session of the harness running this command (an agent's own)"],
  ["@NAME", "the conversation named NAME in this folder (session-bridge alias, LazyBridge)"],
  ["latest, latest~N, H~N", "the newest (with --from H: that harness's), the N-th newest, H's N-th newest"],
  ["ID, PREFIX, TITLE", "a full id, a unique id prefix (6+ characters), an exact title"],
];

/** The column option descriptions start at, as in every command's own help. */
const OPTION_COLUMN = 20;

/**
 * The options every command takes, one home flag per registered harness, and the words they share: what a
 * `<session>` may be only where one is taken (`sessions`), `--version` only before any command (`version`).
 */
export function globalHelp(registry: Registry, shown: { sessions: boolean; version?: boolean }): string {
  const option = (words: string, text: string) =>
    `  ${words.padEnd(Math.max(OPTION_COLUMN, words.length + 2))}${text}`;
  const harnessNames = registry.harnesses.map((h) =>
    h.aliases.length ? `${h.name} (alias ${h.aliases.join(", ")})` : h.name
  );
  return [
    "Global options:",
    ...registry.harnesses.map(({ home }) =>
      option(
        `--${home.flag} DIR`,
        `${home.describe} (default: $${home.env}${
          home.subfolder ? `/${home.subfolder}` : ""
        }, else ~/${home.folder})`,
      )
    ),
    option("--json", "print exactly one JSON document on stdout"),
    option("--no-color", "no colour even on a terminal (also NO_COLOR=1; FORCE_COLOR=1 forces it)"),
    option("-h, --help", "show help"),
    ...(shown.version ? [option("-V, --version", "print the version")] : []),
    "",
    // The forms of lib/pipeline/reference.ts, written out here so --help loads no pipeline module (a test
    // checks every form in its table has its line).
    ...(shown.sessions
      ? ["<session> is one of:", ...REFERENCE_HELP.map(([syntax, means]) => `  ${syntax.padEnd(23)}${means}`)]
      : []),
    `Harness names: ${harnessNames.join(", ")}.`,
    "Exit codes: 0 ok, 1 refused or failed, 2 bad usage or input.",
  ].join("\n");
}
