/** Codex's approval and sandbox policies by meaning; a session records them as "<approval> <sandbox>". */
import type { Posture, PostureMapping } from "../../posture/posture.ts";

const APPROVAL: Record<string, Posture["approval"]> = {
  untrusted: "always",
  "on-request": "on-request",
  "on-failure": "on-request",
  never: "never",
};

const SANDBOX: Record<string, Posture["sandbox"]> = {
  "read-only": "read-only",
  "workspace-write": "workspace-write",
  "danger-full-access": "full-access",
};

export function codexPolicies(posture: Posture): { approval: string; sandbox: string } {
  if (posture.native?.harness === "codex") {
    const [approval, sandbox] = posture.native.words.split(" ");
    if (approval && sandbox) return { approval, sandbox };
  }
  const approval = { always: "untrusted", "on-request": "on-request", never: "never" }[posture.approval];
  const sandbox = {
    "read-only": "read-only",
    "workspace-write": "workspace-write",
    "full-access": "danger-full-access",
  }[posture.sandbox];
  return { approval, sandbox };
}

export const codexPosture: PostureMapping = {
  describe: "Codex approval and sandbox policies",
  // What Codex runs a trusted project with when its config says nothing (its "Auto" preset).
  own: { approval: "on-request", sandbox: "workspace-write" },
  toPosture(words) {
    const [approval, sandbox] = words.split(" ");
    const a = APPROVAL[approval ?? ""];
    const s = SANDBOX[sandbox ?? ""];
    return a && s ? { approval: a, sandbox: s } : undefined;
  },
  words(posture) {
    const { approval, sandbox } = codexPolicies(posture);
    return `${approval} ${sandbox}`;
  },
};
