/**
 * Permission posture, translated by meaning: each harness's own words (Claude Code permission modes, Codex
 * approval and sandbox policies) map to one canonical posture and back, so a target never receives a foreign
 * word it does not understand. A word without an equivalent maps to nothing and is reported; so is a posture
 * the target's words cannot say exactly (it is written as the nearest one and the change is named), and one
 * that lets the agent act without asking. On a hop back to the harness the words came from, the original words
 * are restored from provenance instead of being translated twice.
 */
import type { HarnessName } from "../ir/schema.ts";
import type { ReportEntry } from "../report/report.ts";
import { reportEntry } from "../report/entry.ts";

export interface Posture {
  /** When the agent must stop and ask: before every action, when it judges it needs to, or never. */
  approval: "always" | "on-request" | "never";
  /** What it may change without asking. */
  sandbox: "read-only" | "workspace-write" | "full-access";
  /** File edits are accepted without asking (Claude Code's acceptEdits). */
  autoEdits?: boolean;
  /** The exact words of the harness this posture was first stated in, restored on a hop back to it. */
  native?: NativePosture;
}

export interface NativePosture {
  harness: HarnessName;
  words: string;
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
  if (posture.native?.harness === "claude-code") return posture.native.words;
  if (posture.sandbox === "read-only") return "plan";
  if (posture.approval === "never" && posture.sandbox === "full-access") return "bypassPermissions";
  return posture.autoEdits ? "acceptEdits" : "default";
}

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

/** The target's own words for a posture, or undefined when it has none. */
export function postureWords(target: HarnessName, posture: Posture): string | undefined {
  if (target === "claude-code") return claudePermissionMode(posture);
  if (target === "codex") {
    const { approval, sandbox } = codexPolicies(posture);
    return `${approval} ${sandbox}`;
  }
  return undefined;
}

const WORDS: Record<HarnessName, string> = {
  "claude-code": "Claude Code permission mode",
  codex: "Codex approval and sandbox policies",
  hermes: "Hermes",
};

const describe = (p: Posture) =>
  `approval ${p.approval}, sandbox ${p.sandbox}${p.autoEdits ? ", edits accepted without asking" : ""}`;

const same = (a: Posture, b: Posture) =>
  a.approval === b.approval && a.sandbox === b.sandbox && !!a.autoEdits === !!b.autoEdits;

/**
 * What the report says about the posture a foreign target receives: restored, translated exactly (a warning
 * when it lets the agent act without asking), changed to the nearest the target can say (a loss: the user
 * would be asked less or more than before), or not carried at all.
 */
export function postureEntries(
  source: HarnessName,
  words: string | undefined,
  posture: Posture | undefined,
  target: HarnessName,
  carried: boolean,
): ReportEntry[] {
  const entry = (code: string, severity: ReportEntry["severity"], detail: string): ReportEntry[] => [
    reportEntry(code, severity, detail),
  ];
  if (!words) return [];
  if (!posture || !carried) {
    return entry(
      "permission-posture",
      "loss",
      `permission posture "${words}" has no equivalent in ${target}`,
    );
  }
  const written = postureWords(target, posture)!;
  if (posture.native?.harness === target) {
    return entry(
      "permission-posture-restored",
      "info",
      `${
        WORDS[target]
      } "${written}" restored as they were before the earlier hop (the source said "${words}")`,
    );
  }
  const back = postureFrom(target, written);
  const stated = `${WORDS[source]} "${words}" (${describe(posture)}) written as ${
    WORDS[target]
  } "${written}"`;
  if (!back || !same(back, posture)) {
    return entry(
      "permission-posture-changed",
      "loss",
      `${stated}, which means ${back ? describe(back) : "something else"}: ${target} has no exact equivalent`,
    );
  }
  if (posture.approval === "never" && posture.sandbox === "full-access") {
    return entry(
      "permission-posture-translated",
      "warning",
      `${stated}: the agent acts without asking and without a sandbox, as it did in ${source}`,
    );
  }
  return entry("permission-posture-translated", "info", stated);
}
