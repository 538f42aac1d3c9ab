import type { Homes } from "../harnesses/types.ts";
import type { OptionSpec, Parsed } from "./args.ts";

/** The process environment, read once at the entry point and passed down. */
export type Env = NodeJS.ProcessEnv;

export interface Context {
  homes: Homes;
  json: boolean;
  now: Date;
  env: Env;
  /** The CLI itself, for a command that drives other commands (the demo) without importing the entry. */
  run(argv: string[], env: Env): Promise<number>;
}

/** A command's flags and behaviour; its name and summary are in the registry (commands/index.ts). */
export interface Command {
  /** Full `--help` text after the usage line. */
  help: string;
  usage: string;
  options: OptionSpec;
  run(parsed: Parsed, context: Context): Promise<number>;
}

export const GLOBAL_HELP = `Global options:
  --claude-home DIR   Claude Code config dir (default: $CLAUDE_CONFIG_DIR, else ~/.claude)
  --codex-home DIR    Codex home (default: $CODEX_HOME, else ~/.codex)
  --hermes-home DIR   Hermes home (default: $HERMES_HOME, else ~/.hermes)
  --json              print exactly one JSON document on stdout
  -h, --help          show help

<session> is a file path, a full id, a unique id prefix (6+ characters) or an exact title.
Harness names: claude-code (alias claude), codex, hermes.
Exit codes: 0 ok, 1 refused or failed, 2 bad usage or input.`;
