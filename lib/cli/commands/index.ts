/**
 * Every command by name, with the one line `--help` shows, each module loaded only when its command runs: so
 * `--help` and `--version` load none of what the commands need (zod, the stores).
 */
import type { CommandEntry } from "../command.ts";

export const COMMANDS: CommandEntry[] = [
  {
    name: "tui",
    touchesStores: true,
    summary: "open the full-screen terminal UI (also what no command opens on a terminal)",
    load: async () => (await import("./tui.ts")).tui,
  },
  {
    name: "list",
    touchesStores: true,
    summary: "list sessions across the harness stores",
    load: async () => (await import("./list.ts")).list,
  },
  {
    name: "inspect",
    touchesStores: true,
    summary: "structure, counts, pending state and drift of one session",
    load: async () => (await import("./inspect.ts")).inspect,
  },
  {
    name: "show",
    touchesStores: true,
    summary: "print the full transcript: every turn, reasoning, tool call and result",
    load: async () => (await import("./show.ts")).show,
  },
  {
    name: "convert",
    touchesStores: true,
    converts: true,
    summary: "render a session in another harness's format to a file; no store is touched",
    load: async () => (await import("./convert.ts")).convert,
  },
  {
    name: "handoff",
    touchesStores: true,
    converts: true,
    summary: "make a session resumable in a target harness and print the resume command",
    load: async () => (await import("./handoff.ts")).handoff,
  },
  {
    name: "graph",
    touchesStores: true,
    summary: "a session's agents, the tools each used, and where it came from and went (json, yaml, mermaid)",
    load: async () => (await import("./graph.ts")).graph,
  },
  {
    name: "export",
    touchesStores: true,
    converts: true,
    summary: ({ harnesses }) => {
      const databases = harnesses.filter((h) => h.store.exportedAs).map((h) =>
        `${h.title}: as \`${h.store.exportedAs}\``
      );
      return `write a session to a JSONL file in its own harness's format${
        databases.length ? ` (${databases.join("; ")})` : ""
      }`;
    },
    load: async () => (await import("./export.ts")).exportCommand,
  },
  {
    name: "run",
    touchesStores: true,
    summary: "one turn through a harness's own binary, continuing a named conversation (--alias NAME)",
    load: async () => (await import("./run.ts")).run,
  },
  {
    name: "alias",
    summary: "name conversations (list, bind, rename, forget, resolve) in LazyBridge's shared registry",
    load: async () => (await import("./alias.ts")).alias,
  },
  {
    name: "events",
    touchesStores: true,
    summary: "replay a session as LazyBridge events (runs, model responses with token usage, tool calls)",
    load: async () => (await import("./events.ts")).events,
  },
  {
    name: "usage",
    touchesStores: true,
    summary: "tokens and cost across every store, by harness, model, session or day",
    load: async () => (await import("./usage.ts")).usage,
  },
  {
    name: "log",
    summary:
      "what session-bridge changed (handoffs, undos, prunes, alias binds, skill installs), secrets redacted",
    load: async () => (await import("./log.ts")).log,
  },
  {
    name: "undo",
    touchesStores: true,
    summary: "take back a handoff: remove what it wrote, restore what it replaced",
    load: async () => (await import("./undo.ts")).undo,
  },
  {
    name: "recover",
    summary:
      "finish or roll back handoffs a crash interrupted (every command that touches a store does it first)",
    load: async () => (await import("./recover.ts")).recover,
  },
  {
    name: "prune",
    touchesStores: true,
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
    name: "doctor",
    summary:
      "check each harness (binary, version, store, drift) and session-bridge's own home; say what to fix",
    load: async () => (await import("./doctor.ts")).doctor,
  },
  {
    name: "completion",
    summary: "print the bash, zsh or fish completion script (commands, flags, harnesses, your sessions)",
    // The completion command lists every command, this one too: the list hands itself in.
    load: async () => (await import("./completion.ts")).completionOver(COMMANDS),
  },
  {
    name: "certify",
    summary:
      "hand sessions between the installed harnesses and check each resumes with its history (exit 1 if not)",
    load: async () => (await import("./certify.ts")).certify,
  },
  {
    name: "current",
    touchesStores: true,
    summary: "the session of the coding agent running this command (what an agent hands off)",
    load: async () => (await import("./current.ts")).current,
  },
  {
    name: "install-skill",
    summary: "link the session-handoff agent skill where each installed harness looks for skills",
    load: async () => (await import("./install-skill.ts")).installSkillCommand,
  },
  {
    name: "demo",
    summary: "run the whole pipeline on embedded sample sessions in a throwaway sandbox",
    load: async () => (await import("./demo.ts")).demo,
  },
];
