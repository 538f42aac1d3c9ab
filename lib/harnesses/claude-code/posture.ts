/** Claude Code's permission modes by meaning. */
import type { Posture, PostureMapping } from "../../posture/posture.ts";

const MODES: Record<string, Posture> = {
  default: { approval: "on-request", sandbox: "workspace-write" },
  acceptEdits: { approval: "on-request", sandbox: "workspace-write", autoEdits: true },
  plan: { approval: "on-request", sandbox: "read-only" },
  bypassPermissions: { approval: "never", sandbox: "full-access" },
};

export function claudePermissionMode(posture: Posture): string {
  if (posture.native?.harness === "claude-code") return posture.native.words;
  if (posture.sandbox === "read-only") return "plan";
  if (posture.approval === "never" && posture.sandbox === "full-access") return "bypassPermissions";
  return posture.autoEdits ? "acceptEdits" : "default";
}

export const claudePosture: PostureMapping = {
  describe: "Claude Code permission mode",
  // Its `default` mode: what `claude --resume` runs in unless told otherwise.
  own: MODES.default!,
  // Own keys only: a recorded mode such as "constructor" is no mode (sessions are hostile input).
  toPosture: (words) => Object.hasOwn(MODES, words) ? MODES[words] : undefined,
  words: claudePermissionMode,
};
