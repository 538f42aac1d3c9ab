/**
 * The reference implementation, agent-session-bridge 0.5.0 from PyPI, installed into a private venv in the
 * cache the way the acceptance runner installs Hermes (acceptance/install-pip.ts; reused once installed).
 * Its CLI converts a file: `agent-session-bridge convert --from claude-code --to codex FILE -o OUT`
 * (session_bridge/convert.py: read the whole session, write every record, then dump the list as JSONL).
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { installPip, type PipHarness } from "../acceptance/install-pip.ts";
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
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache");
  return join(base, "session-bridge", "venvs", `${SPEC.pipPackage}-${VERSION}`);
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
