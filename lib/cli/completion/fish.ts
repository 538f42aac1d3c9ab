/** `session-bridge completion fish`: one `complete` line per command, flag and argument. */
import type { CompletionModel, FlagSpec } from "./model.ts";
import { quoted } from "./shared.ts";

function flagLine(condition: string, f: FlagSpec, harnesses: string[]): string {
  const words = [`complete -c session-bridge -n ${quoted(condition)} -l ${f.long}`];
  if (f.short) words.push(`-s ${f.short}`);
  switch (f.value) {
    case undefined:
      break;
    case "harness":
      words.push(`-x -a ${quoted(harnesses.join(" "))}`);
      break;
    case "dir":
      words.push("-x -a '(__fish_complete_directories)'");
      break;
    case "file":
      words.push("-r -F");
      break;
    case "text":
      words.push("-x");
      break;
  }
  return words.join(" ");
}

export function fishCompletion(model: CompletionModel, version: string): string {
  return [
    `# fish completion for session-bridge ${version}, made by \`session-bridge completion fish\`.`,
    "# Load it:  session-bridge completion fish > ~/.config/fish/completions/session-bridge.fish",
    "complete -c session-bridge -f",
    ...model.globalFlags.map((f) => flagLine("__fish_use_subcommand", f, model.harnesses)),
    ...model.commands.map((c) =>
      `complete -c session-bridge -n __fish_use_subcommand -a ${c.name} -d ${quoted(c.summary)}`
    ),
    ...model.commands.flatMap((c) => {
      const seen = `__fish_seen_subcommand_from ${c.name}`;
      return [
        ...c.flags.map((f) => flagLine(seen, f, model.harnesses)),
        ...(c.positional?.kind === "session" || c.positional?.kind === "operation"
          // Session ids (described by their titles) or undoable handoffs, read from disk when asked.
          ? [
            `complete -c session-bridge -n ${quoted(seen)} -a ${
              quoted(`(session-bridge completion --${c.positional.kind}s 2>/dev/null)`)
            }`,
          ]
          : c.positional?.kind === "choices"
          ? [`complete -c session-bridge -n ${quoted(seen)} -a ${quoted(c.positional.words.join(" "))}`]
          : []),
      ];
    }),
    "",
  ].join("\n");
}
