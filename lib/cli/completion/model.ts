/**
 * What the shell completions know, derived from the CLI itself, never kept by hand: the commands and their
 * summaries from the command registry (commands/index.ts), each command's flags from the options it parses
 * (with every harness's home flag and the global ones), what a flag's value is from the word its help names it
 * by (`--to H`: a harness, `--cwd DIR`: a folder, `-o FILE`: a file), the harness names and aliases from the
 * registry, and what a command's positional argument is from its usage (`<session>`: a session, completed at
 * completion time from the stores by `session-bridge completion --sessions`; `bash|zsh|fish`: those words).
 */
import { COMMANDS } from "../commands/index.ts";
import { forRegistry, globalHelp } from "../command.ts";
import { GLOBAL_OPTIONS, homeOptions, type OptionSpec } from "../args.ts";
import type { Registry } from "../../harnesses/registry.ts";

/** What a flag's value is: a harness name, a folder, a file, or text the shell cannot guess. */
export type ValueKind = "harness" | "dir" | "file" | "text";

export interface FlagSpec {
  /** Without dashes. */
  long: string;
  short?: string;
  /** Absent: the flag takes no value. */
  value?: ValueKind;
}

export type Positional = { kind: "session" } | { kind: "choices"; words: string[] };

export interface CompletionCommand {
  name: string;
  summary: string;
  flags: FlagSpec[];
  positional?: Positional;
}

export interface CompletionModel {
  commands: CompletionCommand[];
  /** Flags accepted before any command (every harness's home, --json, --help, --version). */
  globalFlags: FlagSpec[];
  /** Harness names and aliases, as --to and --from take them. */
  harnesses: string[];
}

/** The placeholder a help text names a flag's value by, to what it is. */
const PLACEHOLDERS: Record<string, ValueKind> = { H: "harness", DIR: "dir", FILE: "file", P: "file" };

function valueKind(name: string, text: string): ValueKind {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const word = new RegExp(`--${escaped}[ =]([A-Z][A-Z_]*)\\b`).exec(text)?.[1];
  return (word === undefined ? undefined : PLACEHOLDERS[word]) ?? "text";
}

function flagsOf(options: OptionSpec, text: string): FlagSpec[] {
  return Object.entries(options).map(([long, spec]) => ({
    long,
    ...(spec.short ? { short: spec.short } : {}),
    ...(spec.type === "string" ? { value: valueKind(long, text) } : {}),
  }));
}

function positionalOf(usage: string, name: string): Positional | undefined {
  const words = usage.replace(/\[[^\]]*\]/g, " ").split(/\s+/);
  const after = words.slice(words.indexOf(name) + 1);
  if (after.includes("<session>")) return { kind: "session" };
  const choices = after.find((w) => /^[a-z]+(?:\|[a-z]+)+$/.test(w));
  return choices ? { kind: "choices", words: choices.split("|") } : undefined;
}

export async function completionModel(registry: Registry): Promise<CompletionModel> {
  const globalText = globalHelp(registry);
  const commands: CompletionCommand[] = [];
  for (const entry of COMMANDS) {
    const command = await entry.load();
    const usage = forRegistry(command.usage, registry);
    const text = `${usage}\n${forRegistry(command.help, registry)}\n${globalText}`;
    const options = {
      ...homeOptions(registry),
      ...GLOBAL_OPTIONS,
      ...command.harnessOptions?.(registry),
      ...command.options,
    };
    const positional = positionalOf(usage, entry.name);
    commands.push({
      name: entry.name,
      summary: forRegistry(entry.summary, registry),
      flags: flagsOf(options, text),
      ...(positional ? { positional } : {}),
    });
  }
  return {
    commands,
    globalFlags: [
      ...flagsOf({ ...homeOptions(registry), ...GLOBAL_OPTIONS }, globalText),
      { long: "version", short: "V" },
    ],
    harnesses: registry.harnesses.flatMap((h) => [h.name, ...h.aliases]),
  };
}

/** The flag words (`--to`, `-o`) a command or the global position takes. */
export const flagWords = (flags: readonly FlagSpec[]): string[] =>
  flags.flatMap((f) => [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])]);
