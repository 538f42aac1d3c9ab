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
const homeFlagWords = (model: CompletionModel): string[] =>
  flagWords(model.globalFlags.filter((f) => f.value === "dir"));

/**
 * The loop that reads the words typed before the cursor: the command is the first word that is neither a flag
 * nor a flag's value, global flags may come before it. It sets cmd, positionals, prev (a flag whose value is
 * being typed) and homes (the home flags typed so far, with their values). Bash and zsh differ only in the
 * array of words, where the command line's words start in it, and the cursor's index.
 */
export function wordScanLoop(
  model: CompletionModel,
  shell: { words: string; first: number; cursor: string },
): string {
  const { words, first, cursor } = shell;
  return [
    "  # The command is the first word that is neither a flag nor a flag's value; global flags may come before it.",
    `  for ((i = ${first}; i < ${cursor}; i++)); do`,
    `    word=\${${words}[i]}`,
    "    case $word in",
    "      --*=*) ;;",
    "      -*)",
    '        kind=$(_session_bridge_value "$cmd" "$word")',
    "        if [[ -n $kind ]]; then",
    `          case $word in ${
      homeFlagWords(model).join(" | ")
    }) homes+=("$word" "\${${words}[i + 1]}") ;; esac`,
    `          if ((i + 1 == ${cursor})); then prev=$word; fi`,
    "          ((i++))",
    "        fi ;;",
    "      *) if [[ -z $cmd ]]; then cmd=$word; else ((positionals++)); fi ;;",
    "    esac",
    "  done",
  ].join("\n");
}
