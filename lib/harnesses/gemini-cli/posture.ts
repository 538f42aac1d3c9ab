/**
 * Gemini CLI's approval modes (`--approval-mode`) by meaning. A session file records none: the mode is the
 * command line's, so these words are what a resume command would pass.
 *
 *   default    asks before every tool that changes something (shell, write_file, replace); reads run unasked
 *   auto_edit  edits and writes run unasked, the shell still asks
 *   yolo       nothing asks
 *   plan       read-only: only reading tools and the plan file
 */
import type { Posture, PostureMapping } from "../../posture/posture.ts";

const MODES: Record<string, Posture> = {
  default: { approval: "on-request", sandbox: "workspace-write" },
  auto_edit: { approval: "on-request", sandbox: "workspace-write", autoEdits: true },
  yolo: { approval: "never", sandbox: "full-access" },
  plan: { approval: "on-request", sandbox: "read-only" },
};

/**
 * The mode that asks at least as often as `posture`: never wider. Read-only is `plan`; only a posture that
 * never asks and may change anything is `yolo` (a sandboxed never-ask posture asks here rather than widen);
 * accepted edits are `auto_edit`; everything else `default`.
 */
export function geminiApprovalMode(posture: Posture): string {
  if (posture.native?.harness === "gemini-cli" && posture.native.words in MODES) return posture.native.words;
  if (posture.sandbox === "read-only") return "plan";
  if (posture.approval === "never" && posture.sandbox === "full-access") return "yolo";
  return posture.autoEdits ? "auto_edit" : "default";
}

export const geminiPosture: PostureMapping = {
  describe: "Gemini CLI approval mode",
  toPosture: (words) => MODES[words === "autoEdit" ? "auto_edit" : words],
  words: geminiApprovalMode,
};
