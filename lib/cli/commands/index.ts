/**
 * Every command by name, with the one line `--help` shows, each module loaded only when its command runs: so
 * `--help` and `--version` load none of what the commands need (ajv, zod, the stores).
 */
import type { Command, PerRegistry } from "../command.ts";

export interface CommandEntry {
  name: string;
  /** The one line `--help` shows (made from the registry when it names harnesses). */
  summary: PerRegistry<string>;
  load(): Promise<Command>;
}

export const COMMANDS: CommandEntry[] = [
  {
    name: "list",
    summary: "list sessions across the harness stores",
    load: async () => (await import("./list.ts")).list,
  },
  {
    name: "inspect",
    summary: "structure, counts, pending state and drift of one session",
    load: async () => (await import("./inspect.ts")).inspect,
  },
  {
    name: "show",
    summary: "print the full transcript: every turn, reasoning, tool call and result",
    load: async () => (await import("./show.ts")).show,
  },
  {
    name: "convert",
    summary: "render a session in another harness's format to a file; no store is touched",
    load: async () => (await import("./convert.ts")).convert,
  },
  {
    name: "handoff",
    summary: "make a session resumable in a target harness and print the resume command",
    load: async () => (await import("./handoff.ts")).handoff,
  },
  {
    name: "export",
    summary: ({ harnesses }) => {
      const databases = harnesses.filter((h) => h.exportedAs).map((h) =>
        `${h.title}: as \`${h.exportedAs}\``
      );
      return `write a session to a JSONL file in its own harness's format${
        databases.length ? ` (${databases.join("; ")})` : ""
      }`;
    },
    load: async () => (await import("./export.ts")).exportCommand,
  },
  {
    name: "undo",
    summary: "take back a handoff: remove what it wrote, restore what it replaced",
    load: async () => (await import("./undo.ts")).undo,
  },
  {
    name: "prune",
    summary: "remove old backups by the retention rule (also applied after every handoff and undo)",
    load: async () => (await import("./prune.ts")).prune,
  },
  {
    name: "drift",
    summary:
      "check every installed store against the embedded schemas and report unknown shapes (exit 1 if any)",
    load: async () => (await import("./drift.ts")).drift,
  },
  {
    name: "certify",
    summary:
      "hand sessions between the installed harnesses and check each resumes with its history (exit 1 if not)",
    load: async () => (await import("./certify.ts")).certify,
  },
  {
    name: "demo",
    summary: "run the whole pipeline on embedded sample sessions in a throwaway sandbox",
    load: async () => (await import("./demo.ts")).demo,
  },
];
