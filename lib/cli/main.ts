/**
 * The CLI: global flags, one command, one exit code. Every failure becomes one line on stderr (a stack trace
 * only with SESSION_BRIDGE_DEBUG=1) and, under --json, one JSON document on stdout as well.
 */
import { type Env, forRegistry, globalHelp, titles } from "./command.ts";
import type { Registry } from "../harnesses/registry.ts";
import { COMMANDS } from "./commands/index.ts";
import { classified, EXIT_INPUT, exitCodeFor, InputError, messageOf } from "../errors.ts";
import { type Output, outputTo, writeAll } from "./output.ts";
import { fittedHelp, processDisplay, processPager } from "./display.ts";
import { VERSION } from "../version.ts";
import { NO_TERMINAL, type Terminal } from "./terminal.ts";

function mainHelp(registry: Registry): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `session-bridge ${VERSION}: move a live coding-agent session between ${titles(registry.harnesses)}.`,
    "",
    "Usage: session-bridge [global options] <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${forRegistry(c.summary, registry)}`),
    "",
    globalHelp(registry, { sessions: true, version: true }),
    "",
    "Run 'session-bridge help <command>' for a command's options. New here? Watch it work on samples with",
    "'session-bridge demo', then try 'session-bridge list' and 'session-bridge handoff latest --to H --dry-run'.",
  ].join("\n");
}

/** What a run is given besides its arguments and environment, each read once by whoever starts it. */
export interface RunOptions {
  /** The harnesses it knows: the built-in ones unless a caller (a test, an extension) brings its own. */
  registry?: Registry;
  /** The person to ask (none unless the entry point or a test passes one). */
  terminal?: Terminal;
  /** Where it prints (default: this process's stdout and stderr; a test or a program passes its own). */
  output?: Output;
  /**
   * Called as a command that reads and renders a whole session starts: only the process's own entry point
   * does anything here (main.ts: the tuned restart), a test or a program running the CLI in-process does not.
   */
  beforeLongWork?(): void;
}

/**
 * Runs the CLI on `argv` with `env`, the environment the entry point read (nothing below reads process.env),
 * with what `options` bring.
 */
export async function run(argv: string[], env: Env, options: RunOptions = {}): Promise<number> {
  const { registry, terminal = NO_TERMINAL } = options;
  const output = options.output ??
    outputTo(writeAll, processDisplay(env, argv.includes("--no-color"), terminal), processPager(env));
  const { out, fail, printJson } = output;
  const wantsJson = argv.includes("--json");
  try {
    const line = await commandLine(argv, () => registry ?? builtinRegistry());
    const { globals, rest } = line;
    // No command on a terminal opens the TUI (with any home flags given); in a script or a pipe, the help.
    const asked = ["--help", "-h", "--version", "-V"];
    // The terminal is asked last: --version and --help never need to know (lib/cli/terminal.ts).
    const opensTui = line.name === undefined && !globals.some((g) => asked.includes(g)) &&
      terminal.interactive;
    const name = opensTui ? "tui" : line.name;
    if (globals.includes("--version") || globals.includes("-V")) {
      if (wantsJson) printJson({ version: VERSION });
      else out(`session-bridge ${VERSION}`);
      return 0;
    }
    if (name === "help" && rest.length) {
      return await run([rest[0]!, "--help", ...rest.slice(1)], env, { registry, output });
    }
    if (name === undefined || name === "help" || globals.includes("--help") || globals.includes("-h")) {
      out(await fittedHelp(mainHelp(registry ?? await builtinRegistry()), output));
      return name === undefined && !globals.length ? EXIT_INPUT : 0;
    }
    const entry = COMMANDS.find((c) => c.name === name);
    if (!entry) {
      const { didYouMean } = await import("./suggest.ts");
      const known = [...COMMANDS.map((c) => c.name), "help", "--version"];
      throw new InputError(
        `unknown command ${JSON.stringify(name)}${didYouMean(name, known, " (see session-bridge --help)")}`,
      );
    }
    if (entry.converts && !rest.includes("--help") && !rest.includes("-h")) options.beforeLongWork?.();
    // Loaded here, not at start-up: a command's dependencies (zod, the stores) cost `--version` nothing.
    const { runCommand } = await import("./dispatch.ts");
    const harnesses = registry ?? await builtinRegistry();
    return await runCommand(entry, [...globals, ...rest], {
      env,
      registry: harnesses,
      terminal,
      output,
      cli: (argv, env, into = output) => run(argv, env, { registry: harnesses, output: into }),
    });
  } catch (caught) {
    const error = classified(caught);
    const code = exitCodeFor(error);
    if (env.SESSION_BRIDGE_DEBUG === "1" && error instanceof Error) {
      output.err(error.stack ?? messageOf(error));
    }
    fail(oneLine(messageOf(error)));
    if (wantsJson) printJson({ error: { message: messageOf(error), exitCode: code } }, false);
    return code;
  }
}

/**
 * The command and what surrounds it: the global options typed before it (`session-bridge --json list`,
 * `--codex-home X handoff ...`), which the command then takes as its own, and its arguments.
 */
async function commandLine(
  argv: readonly string[],
  harnesses: () => Registry | Promise<Registry>,
): Promise<{ name: string | undefined; globals: string[]; rest: string[] }> {
  const globals: string[] = [];
  let i = 0;
  for (; i < argv.length && argv[i]!.startsWith("-") && argv[i] !== "--"; i++) {
    const word = argv[i]!;
    if (SWITCHES.includes(word)) {
      globals.push(word);
      continue;
    }
    const flag = word.replace(/^--/, "").split("=")[0]!;
    const homeFlags = (await harnesses()).harnesses.map((h) => h.home.flag);
    if (!word.startsWith("--") || !homeFlags.includes(flag)) {
      const { didYouMean } = await import("./suggest.ts");
      const known = [...SWITCHES, ...homeFlags.map((f) => `--${f}`)];
      throw new InputError(
        `unknown option ${JSON.stringify(word)} before the command${
          didYouMean(
            word.split("=")[0]!,
            known,
            " (global options: --json, --no-color, --help, --version, --<harness>-home DIR)",
          )
        }`,
      );
    }
    if (word.includes("=")) globals.push(word);
    else {
      if (i + 1 >= argv.length) throw new InputError(`option ${word} needs a value (${word} DIR)`);
      globals.push(word, argv[++i]!);
    }
  }
  if (argv[i] === "--") i++;
  return { name: argv[i], globals, rest: argv.slice(i + 1) };
}

/** The global options that take no value. */
const SWITCHES = ["--json", "--no-color", "--help", "-h", "--version", "-V"];

/** Loaded on demand, like the commands: `--version` pays nothing for the harnesses. */
async function builtinRegistry(): Promise<Registry> {
  return (await import("../harnesses/registry.ts")).builtinRegistry;
}

/** Each run of whitespace holding a line break becomes a space (tried once per run: linear in the text). */
const oneLine = (text: string) => text.replace(/(?<!\s)[^\S\n]*\n\s*/g, " ");
