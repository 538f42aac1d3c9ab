/**
 * The reference implementation, agent-session-bridge 0.5.0 from PyPI, in its private venv in the cache
 * (acceptance/python-venv.ts, shared with the acceptance runner; reused once installed). Its CLI converts a
 * file: `agent-session-bridge convert --from claude-code --to codex FILE -o OUT` (session_bridge/convert.py:
 * read the whole session into its IR, render every record into a list, then dump the list as JSONL).
 */
import { dirname, join } from "node:path";
import { pythonAvailable, referenceVenv } from "../acceptance/python-venv.ts";
import { messageOf } from "../lib/errors.ts";

const PACKAGE = "agent-session-bridge";
const VERSION = "0.5.0";

export type Reference = { label: string; executable: string } | { label: string; skipped: string };

/** The reference's executable, installing it on first use; skipped (with why) when Python is absent. */
export function reference(): Reference {
  const label = `${PACKAGE} ${VERSION}`;
  if (!pythonAvailable()) return { label, skipped: "no Python 3.11+ on PATH (set SESSION_BRIDGE_PYTHON)" };
  try {
    return { label, executable: join(dirname(referenceVenv(PACKAGE, VERSION)), PACKAGE) };
  } catch (error) {
    return { label, skipped: messageOf(error).split("\n")[0]! };
  }
}

/** The argv converting `file` from one harness to another with the reference. */
export function referenceConvert(executable: string, from: string, to: string, file: string, out: string) {
  return [executable, "convert", "--from", from, "--to", to, file, "-o", out];
}
