/**
 * Runs one command: its module loaded, its flags parsed, homes resolved from the flags and the environment the
 * entry point read. Kept apart from main.ts so `--version` and `--help` load none of this.
 */
import type { CommandEntry } from "./command.ts";
import { type Command, type Context, type Env, forRegistry, globalHelp } from "./command.ts";
import { flag, homeFlags, parse, type Parsed } from "./args.ts";
import { resolveHomes } from "../harnesses/homes.ts";
import { resolveBridgeHome } from "../store/backup.ts";
import { targetVersionsFrom } from "../pipeline/environment.ts";
import type { Registry } from "../harnesses/registry.ts";
import type { Output } from "./output.ts";
import { InputError } from "../errors.ts";
import type { Terminal } from "./terminal.ts";
import { readLimitsFrom } from "../io/jsonl.ts";
import type { Feedback } from "../io/progress.ts";
import { progressRenderer } from "./progress.ts";
import { fittedHelp } from "./display.ts";
import { type ProgressTracker, TIMER_TICKER } from "../io/progress-display.ts";

/** What the entry gives the command's run: read once there, passed down in its context. */
export interface RunContext {
  env: Env;
  registry: Registry;
  terminal: Terminal;
  output: Output;
  cli: Context["run"];
}

export async function runCommand(
  entry: CommandEntry,
  argv: string[],
  { env, registry, terminal, output, cli }: RunContext,
): Promise<number> {
  const command = await entry.load();
  const parsed = await parse(argv, { ...command.harnessOptions?.(registry), ...command.options }, registry);
  if (flag(parsed.values, "help")) {
    const usage = forRegistry(command.usage, registry);
    const help = forRegistry(command.help, registry);
    output.out(
      await fittedHelp(
        `Usage: ${usage}\n\n${forRegistry(entry.summary, registry)}.\n\n${help}\n\n${
          globalHelp(registry, { sessions: command.arguments.includes("session") })
        }`,
        output,
      ),
    );
    return 0;
  }
  refuseExtraArguments(entry.name, command, parsed, registry);
  const progress = stderrProgress(command, flag(parsed.values, "json"), terminal, output);
  const feedback: Feedback = {
    ...(progress ? { progress: progress.listener } : {}),
    notice: (line) => {
      progress?.clear();
      output.err(`session-bridge: ${line}`);
    },
  };
  // A handoff a crash cut short is finished or rolled back before a store is read or written, here and only
  // here for the whole command (the library's handoff and undo are told, so they do not look again). A dry run
  // changes nothing, so it leaves that to the next real run or to `recover`.
  const recovers = entry.touchesStores === true && !flag(parsed.values, "dry-run");
  const context: Context = {
    registry,
    homes: resolveHomes(registry.harnesses, homeFlags(parsed.values, registry), env),
    bridgeHome: resolveBridgeHome(env),
    targetVersions: targetVersionsFrom(registry, env),
    // The run's record limit and streaming size, passed down with every read: a program driving the CLI
    // in-process keeps its own, and a bad one is said before anything is read.
    limits: readLimitsFrom(env),
    json: flag(parsed.values, "json"),
    recovered: recovers,
    now: new Date(),
    env,
    terminal,
    output,
    feedback,
    run: cli,
  };
  try {
    if (recovers) {
      await (await import("../pipeline/recover.ts")).recoverIfInterrupted(context.bridgeHome, feedback);
    }
    return await command.run(parsed, context);
  } finally {
    // A step cut short by an error leaves no half-drawn line before the error's own.
    progress?.clear();
  }
}

/**
 * Progress on stderr, only for a person watching it; a --json run prints its one document and nothing else,
 * and does not ask whether stderr is a terminal (node:tty costs a few ms to load: lib/cli/terminal.ts). A
 * command that draws the screen (the TUI) shows progress itself: a line drawn on stderr would land in it.
 */
export function stderrProgress(
  command: Command,
  json: boolean,
  terminal: Terminal,
  output: Output,
): ProgressTracker | undefined {
  return !json && !command.drawsScreen && terminal.progress
    // Ticked while a step runs, so one that works long between its updates still shows its time passing.
    ? progressRenderer(terminal.progress, output.drawProgress, undefined, TIMER_TICKER)
    : undefined;
}

/**
 * One argument more than the command takes is bad usage, never ignored: `handoff abc codex` (meaning
 * `--to codex`) must not hand off somewhere else, and `list codex` must not list every harness.
 */
function refuseExtraArguments(name: string, command: Command, parsed: Parsed, registry: Registry): void {
  const extra = parsed.positionals[command.arguments.length];
  if (extra === undefined) return;
  const takes = command.arguments.length
    ? `takes ${command.arguments.map((a) => a.startsWith("[") ? a : `<${a}>`).join(" ")}`
    : "takes no arguments";
  const harness = registry.harnesses.find((h) => h.name === extra || h.aliases.includes(extra));
  const flagged = ["to", "from"].filter((f) => f in command.options && parsed.values[f] === undefined);
  const meant = harness && flagged.length ? `; did you mean --${flagged[0]} ${extra}?` : "";
  throw new InputError(
    `unexpected argument ${
      JSON.stringify(extra)
    }: ${name} ${takes}${meant} (see session-bridge help ${name})`,
  );
}
