/**
 * What the shell completions know, derived from the CLI itself, never kept by hand: the commands and their
 * summaries from the command registry (commands/index.ts), what each command's first argument is from the
 * arguments it declares, its flags from the options it parses (with every harness's home flag and the global
 * ones), what a flag's value is from the word its help names it by (`--to H`: a harness, `--cwd DIR`: a folder,
 * `-o FILE`: a file), the harness names and aliases from the registry; a `session` argument is completed at completion time from the stores by `session-bridge completion
 * --sessions`, an `operation` (undo's) by `--operations`, and words a usage lists as `bash|zsh|fish` offered as they are.
 */
import { type CommandEntry, forRegistry, globalHelp } from "../command.ts";
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

/** A session or an undoable handoff (read when Tab is pressed), or fixed words. */
export type Positional = { kind: "session" | "operation" } | { kind: "choices"; words: string[] };

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

/** The placeholder after the first `--NAME ` or `--NAME=` that has one (found by indexOf: no pattern built). */
function valueKind(name: string, text: string): ValueKind {
  const flag = `--${name}`;
  const placeholder = /[ =]([A-Z][A-Z_]*)\b/y;
  for (let at = text.indexOf(flag); at !== -1; at = text.indexOf(flag, at + 1)) {
    placeholder.lastIndex = at + flag.length;
    const word = placeholder.exec(text)?.[1];
    if (word !== undefined) return PLACEHOLDERS[word] ?? "text";
  }
  return "text";
}

function flagsOf(options: OptionSpec, text: string): FlagSpec[] {
  return Object.entries(options).map(([long, spec]) => ({
    long,
    ...(spec.short ? { short: spec.short } : {}),
    ...(spec.type === "string" ? { value: valueKind(long, text) } : {}),
  }));
}

function positionalOf(first: string | undefined, usage: string, name: string): Positional | undefined {
  const argument = first?.replace(/^\[(.*)\]$/, "$1");
  if (argument === "session" || argument === "operation") return { kind: argument };
  // `(list | bind NAME <session> | ...)`: a choice of actions, each named by its first word.
  const opening = `${name} (`;
  const open = usage.indexOf(opening);
  const close = open === -1 ? -1 : usage.indexOf(")", open + opening.length);
  const group = close === -1 ? undefined : usage.slice(open + opening.length, close);
  const actions = group?.split("|").map((part) => part.trim().split(/\s+/)[0]!);
  if (actions && actions.every((a) => /^[a-z]+$/.test(a))) return { kind: "choices", words: actions };
  // Each `[...]` goes; an unclosed `[` is read to the end once and stays (as no later one can close either).
  const words = usage.replace(/\[[^\]]*(\])?/g, (bracket, close?: string) => close ? " " : bracket).split(
    /\s+/,
  );
  const after = words.slice(words.indexOf(name) + 1);
  const choices = after.find((w) => /^[a-z]+(?:\|[a-z]+)+$/.test(w));
  return choices ? { kind: "choices", words: choices.split("|") } : undefined;
}

/** @param entries the command registry (commands/index.ts), handed in by the completion command it lists */
export async function completionModel(
  registry: Registry,
  entries: readonly CommandEntry[],
): Promise<CompletionModel> {
  const globalText = globalHelp(registry, { sessions: true, version: true });
  const commands: CompletionCommand[] = [];
  for (const entry of entries) {
    const command = await entry.load();
    const usage = forRegistry(command.usage, registry);
    const text = `${usage}\n${forRegistry(command.help, registry)}\n${globalText}`;
    const options = {
      ...homeOptions(registry),
      ...GLOBAL_OPTIONS,
      ...command.harnessOptions?.(registry),
      ...command.options,
    };
    const positional = positionalOf(command.arguments[0], usage, entry.name);
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
