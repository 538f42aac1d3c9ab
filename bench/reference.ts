/**
 * The reference implementation, agent-session-bridge 0.5.0 from PyPI, installed into a private venv in the
 * cache the way the acceptance runner installs Hermes (acceptance/python-venv.ts; reused once installed).
 * Its CLI converts a file: `agent-session-bridge convert --from claude-code --to codex FILE -o OUT`
 * (session_bridge/convert.py: read the whole session, write every record, then dump the list as JSONL).
 */
import { installPip, type PipHarness, venvDir as referenceVenvDir } from "../acceptance/python-venv.ts";
import { messageOf } from "../lib/errors.ts";

const VERSION = "0.5.0";
const SPEC: PipHarness = {
  kind: "pip",
  pipPackage: "agent-session-bridge",
  executable: "agent-session-bridge",
  pythons: ["3.11", "3.12", "3.13"],
  pythonEnv: "SESSION_BRIDGE_BENCH_PYTHON",
};

export type Reference = { label: string; executable: string } | { label: string; skipped: string };

export function venvDir(): string {
  return referenceVenvDir(SPEC.pipPackage, VERSION);
}

/** The reference's executable, installing it on first use; skipped (with why) when Python is absent. */
export function reference(): Reference {
  const label = `${SPEC.pipPackage} ${VERSION}`;
  try {
    return { label, executable: installPip(venvDir(), SPEC, VERSION) };
  } catch (error) {
    return { label, skipped: messageOf(error).split("\n")[0]! };
  }
}

/** The argv converting `file` from one harness to another with the reference. */
export function referenceConvert(executable: string, from: string, to: string, file: string, out: string) {
  return [executable, "convert", "--from", from, "--to", to, file, "-o", out];
}
