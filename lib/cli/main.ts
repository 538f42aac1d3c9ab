/**
 * The CLI: global flags, one command, one exit code. Every failure becomes one line on stderr (a stack trace
 * only with SESSION_BRIDGE_DEBUG=1) and, under --json, one JSON document on stdout as well.
 */
import { type Env, forRegistry, globalHelp, titles } from "./command.ts";
import type { Registry } from "../harnesses/registry.ts";
import { COMMANDS } from "./commands/index.ts";
import { classified, EXIT_INPUT, exitCodeFor, InputError, messageOf } from "../errors.ts";
import { err, out, printJson } from "./output.ts";
import { VERSION } from "../version.ts";
import { NO_TERMINAL, type Terminal } from "./terminal.ts";

function mainHelp(registry: Registry): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `session-bridge ${VERSION}: move a live coding-agent session between ${titles(registry.harnesses)}.`,
    "",
    "Usage: session-bridge <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${forRegistry(c.summary, registry)}`),
    "",
    globalHelp(registry),
    "",
    "Run 'session-bridge <command> --help' for a command's options.",
  ].join("\n");
}

/**
 * Runs the CLI on `argv` with `env`, the environment the entry point read (nothing below reads process.env),
 * over `registry`'s harnesses: the built-in ones unless a caller (a test, an extension) brings its own, and
 * with `terminal` as the person to ask (none unless the entry point or a test passes one).
 */
export async function run(
  argv: string[],
  env: Env,
  registry?: Registry,
  terminal: Terminal = NO_TERMINAL,
): Promise<number> {
  const wantsJson = argv.includes("--json");
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      out(mainHelp(registry ?? await builtinRegistry()));
      return name === undefined ? EXIT_INPUT : 0;
    }
    if (name === "--version" || name === "-V") {
      if (wantsJson) printJson({ version: VERSION });
      else out(`session-bridge ${VERSION}`);
      return 0;
    }
    const entry = COMMANDS.find((c) => c.name === name);
    if (!entry) throw new InputError(`unknown command ${JSON.stringify(name)} (see session-bridge --help)`);
    // Loaded here, not at start-up: a command's dependencies (ajv, zod, the stores) cost `--version` nothing.
    const { runCommand } = await import("./dispatch.ts");
    const harnesses = registry ?? await builtinRegistry();
    return await runCommand(entry, rest, env, harnesses, terminal, (argv, env) => run(argv, env, harnesses));
  } catch (caught) {
    const error = classified(caught);
    const code = exitCodeFor(error);
    if (env.SESSION_BRIDGE_DEBUG === "1" && error instanceof Error) {
      err(error.stack ?? messageOf(error));
    }
    err(`session-bridge: ${oneLine(messageOf(error))}`);
    if (wantsJson) printJson({ error: { message: messageOf(error), exitCode: code } }, false);
    return code;
  }
}

/** Loaded on demand, like the commands: `--version` pays nothing for the harnesses. */
async function builtinRegistry(): Promise<Registry> {
  return (await import("../harnesses/registry.ts")).builtinRegistry;
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");
