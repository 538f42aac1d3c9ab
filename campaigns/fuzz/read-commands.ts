/**
 * Every CLI command that reads a session and writes nothing in a harness's store, as the long-run campaign and
 * the bench run them on a hostile session: listing and usage over the stores, the rest on one session.
 */
import { join } from "node:path";

export interface ReadTarget {
  /** The session, as `list` names it (a file, or `state.db#id`). */
  ref: string;
  /** A folder the commands that write a file write into (never a harness's store). */
  output: string;
  /** The harness `convert` and `handoff --dry-run` go to. */
  to: string;
  /** An existing directory the handoff would resume in (the session's own is not on this machine). */
  cwd: string;
}

export interface ReadCommand {
  name: string;
  argv(target: ReadTarget): string[];
}

export const READ_COMMANDS: readonly ReadCommand[] = [
  { name: "list", argv: () => ["list"] },
  { name: "show", argv: (t) => ["show", t.ref] },
  { name: "show --redact", argv: (t) => ["show", t.ref, "--redact"] },
  { name: "inspect", argv: (t) => ["inspect", t.ref] },
  { name: "events", argv: (t) => ["events", t.ref] },
  { name: "graph", argv: (t) => ["graph", t.ref] },
  { name: "usage", argv: () => ["usage"] },
  {
    name: "export --redact",
    argv: (t) => ["export", t.ref, "-o", join(t.output, "export"), "--force", "--redact"],
  },
  {
    name: "convert --redact",
    argv: (t) => ["convert", t.ref, "--to", t.to, "-o", join(t.output, "convert"), "--force", "--redact"],
  },
  { name: "handoff --dry-run", argv: (t) => ["handoff", t.ref, "--to", t.to, "--cwd", t.cwd, "--dry-run"] },
];
