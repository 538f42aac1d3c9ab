/** Shell text the bash and zsh completions share (both shells read this `case` syntax the same way). */
import { type CompletionModel, type FlagSpec, flagWords } from "./model.ts";

/** A word in single quotes for sh, bash, zsh and fish alike (every word here is a name, flag or summary). */
export const quoted = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

function valueCases(flags: readonly FlagSpec[], indent: string): string[] {
  const byKind = new Map<string, string[]>();
  for (const f of flags) {
    if (!f.value) continue;
    byKind.set(f.value, [...(byKind.get(f.value) ?? []), ...flagWords([f])]);
  }
  return [...byKind].map(([kind, words]) => `${indent}${words.join(" | ")}) echo ${kind} ;;`);
}

/**
 * `_session_bridge_value COMMAND FLAG` prints what FLAG's value is under COMMAND (an empty COMMAND: before
 * any), one of harness, dir, file, text; nothing when FLAG takes no value.
 */
export function valueFunction(model: CompletionModel): string {
  return [
    "_session_bridge_value() {",
    "  case $1 in",
    "    '')",
    "      case $2 in",
    ...valueCases(model.globalFlags, "        "),
    "      esac ;;",
    ...model.commands.flatMap((c) => [
      `    ${c.name})`,
      "      case $2 in",
      ...valueCases(c.flags, "        "),
      "      esac ;;",
    ]),
    "  esac",
    "}",
  ].join("\n");
}

/** `_session_bridge_flags COMMAND` prints the flags COMMAND takes (an empty COMMAND: before any). */
export function flagsFunction(model: CompletionModel): string {
  return [
    "_session_bridge_flags() {",
    "  case $1 in",
    `    '') echo ${quoted(flagWords(model.globalFlags).join(" "))} ;;`,
    ...model.commands.map((c) => `    ${c.name}) echo ${quoted(flagWords(c.flags).join(" "))} ;;`),
    "  esac",
    "}",
  ].join("\n");
}

/** `_session_bridge_positional COMMAND` prints `session`, `operation`, `choices WORD...`, or nothing. */
export function positionalFunction(model: CompletionModel): string {
  return [
    "_session_bridge_positional() {",
    "  case $1 in",
    ...model.commands.flatMap((c) =>
      c.positional
        ? [
          `    ${c.name}) echo ${
            c.positional.kind === "choices"
              ? quoted(`choices ${c.positional.words.join(" ")}`)
              : c.positional.kind
          } ;;`,
        ]
        : []
    ),
    "  esac",
    "}",
  ].join("\n");
}

/** The home flags, whose values the session lookup is given so it reads the stores the command line names. */
export const homeFlagWords = (model: CompletionModel): string[] =>
  flagWords(model.globalFlags.filter((f) => f.value === "dir"));
