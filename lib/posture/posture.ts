/**
 * Permission posture, translated by meaning: each harness's own words (Claude Code permission modes, Codex
 * approval and sandbox policies) map to one canonical posture and back, so a target never receives a foreign
 * word it does not understand. A word without an equivalent maps to nothing and is reported.
 */
import type { HarnessName } from "../ir/schema.ts";

export interface Posture {
  /** When the agent must stop and ask: before every action, when it judges it needs to, or never. */
  approval: "always" | "on-request" | "never";
  /** What it may change without asking. */
  sandbox: "read-only" | "workspace-write" | "full-access";
  /** File edits are accepted without asking (Claude Code's acceptEdits). */
  autoEdits?: boolean;
}

const CLAUDE: Record<string, Posture> = {
  default: { approval: "on-request", sandbox: "workspace-write" },
  acceptEdits: { approval: "on-request", sandbox: "workspace-write", autoEdits: true },
  plan: { approval: "on-request", sandbox: "read-only" },
  bypassPermissions: { approval: "never", sandbox: "full-access" },
};

const CODEX_APPROVAL: Record<string, Posture["approval"]> = {
  untrusted: "always",
  "on-request": "on-request",
  "on-failure": "on-request",
  never: "never",
};

const CODEX_SANDBOX: Record<string, Posture["sandbox"]> = {
  "read-only": "read-only",
  "workspace-write": "workspace-write",
  "danger-full-access": "full-access",
};

/**
 * The canonical posture of a harness's own permission words. Codex's are "<approval> <sandbox>" (as the Codex
 * reader records them from `turn_context`).
 */
export function postureFrom(harness: HarnessName, words: string | undefined): Posture | undefined {
  if (!words) return undefined;
  if (harness === "claude-code") return CLAUDE[words];
  if (harness === "codex") {
    const [approval, sandbox] = words.split(" ");
    const a = CODEX_APPROVAL[approval ?? ""];
    const s = CODEX_SANDBOX[sandbox ?? ""];
    return a && s ? { approval: a, sandbox: s } : undefined;
  }
  return undefined;
}

export function claudePermissionMode(posture: Posture): string {
  if (posture.sandbox === "read-only") return "plan";
  if (posture.approval === "never" && posture.sandbox === "full-access") return "bypassPermissions";
  return posture.autoEdits ? "acceptEdits" : "default";
}

export function codexPolicies(posture: Posture): { approval: string; sandbox: string } {
  const approval = { always: "untrusted", "on-request": "on-request", never: "never" }[posture.approval];
  const sandbox = {
    "read-only": "read-only",
    "workspace-write": "workspace-write",
    "full-access": "danger-full-access",
  }[posture.sandbox];
  return { approval, sandbox };
}
