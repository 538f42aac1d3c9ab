/**
 * Permission posture, translated by meaning: each harness's own words (Claude Code permission modes, Codex
 * approval and sandbox policies: its descriptor's `posture` mapping) map to one canonical posture and back, so a target never receives a foreign
 * word it does not understand. A word without an equivalent maps to nothing and is reported; so is a posture
 * the target's words cannot say exactly (it is written as the nearest one and the change is named), and one
 * that lets the agent act without asking. On a hop back to the harness the words came from, the original words
 * are restored from provenance instead of being translated twice.
 */
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
  harness: string;
  words: string;
}

const APPROVAL_WIDTH: Record<Posture["approval"], number> = { always: 0, "on-request": 1, never: 2 };
const SANDBOX_WIDTH: Record<Posture["sandbox"], number> = {
  "read-only": 0,
  "workspace-write": 1,
  "full-access": 2,
};

/**
 * Whether `candidate` lets the agent do nothing unasked that `limit` would have asked about: it asks at least
 * as often and may change no more. Accepted edits stay within a limit that accepts them, or never asks at all.
 */
export function withinPosture(candidate: Posture, limit: Posture): boolean {
  return APPROVAL_WIDTH[candidate.approval] <= APPROVAL_WIDTH[limit.approval] &&
    SANDBOX_WIDTH[candidate.sandbox] <= SANDBOX_WIDTH[limit.sandbox] &&
    (!candidate.autoEdits || !!limit.autoEdits || limit.approval === "never");
}

/**
 * How far a posture travels into another harness: `narrow` (the default) no further than the target allows
 * when told nothing (its own default), `keep` as the source had it, however much more that lets the agent do
 * unasked there (`--permissions keep`).
 */
export type PermissionsChoice = "narrow" | "keep";

export const PERMISSIONS_CHOICES: readonly PermissionsChoice[] = ["narrow", "keep"];

/**
 * The widest posture within both `a` and `b`: asking as often as the more careful, changing no more than the
 * more limited, accepting edits unasked only where both would.
 */
export function narrowest(a: Posture, b: Posture): Posture {
  const approval = APPROVAL_WIDTH[a.approval] <= APPROVAL_WIDTH[b.approval] ? a.approval : b.approval;
  const sandbox = SANDBOX_WIDTH[a.sandbox] <= SANDBOX_WIDTH[b.sandbox] ? a.sandbox : b.sandbox;
  const edits = (p: Posture) => !!p.autoEdits || p.approval === "never";
  return {
    approval,
    sandbox,
    ...(edits(a) && edits(b) && (a.autoEdits || b.autoEdits) ? { autoEdits: true } : {}),
  };
}

/** How a harness states permissions in its own words (its descriptor's posture mapping). */
export interface PostureMapping {
  /** What its words are called in a report ("Claude Code permission mode"). */
  describe: string;
  /**
   * What it allows when a session or its command says nothing: its own default mode (Claude Code's `default`,
   * Codex's `on-request` in a `workspace-write` sandbox, Gemini CLI's `default`). A posture carried in is
   * narrowed to it unless the user asks to keep the source's (PermissionsChoice).
   */
  own: Posture;
  /** The posture its own words mean, or undefined when they have no equivalent. */
  toPosture(words: string): Posture | undefined;
  /** Its own words for a posture (the original words on a hop back to the harness they were stated in). */
  words(posture: Posture): string;
}

/** A harness as the posture report names it. */
export interface PostureSide {
  name: string;
  title: string;
  posture?: PostureMapping;
}

/** The posture a foreign target receives, and the two harnesses whose words the report quotes. */
export interface PostureCarry {
  posture: Posture;
  source: PostureSide;
  target: PostureSide;
  /** The source's posture by meaning, when `posture` was narrowed to the target's own default (not kept). */
  narrowedFrom?: Posture;
  /** `--permissions keep` let it allow more than the target's own default. */
  widened?: boolean;
}

/**
 * The posture a foreign target receives: the source's, narrowed to what the target allows by default unless
 * `choice` is `keep`. On a hop back, the earlier words the source's would be restored to (`native`) are what is
 * measured: restoring them must not widen silently either. A posture the target writes in the same words
 * narrowed or not (Gemini CLI's modes, chosen never wider) is left as it is.
 */
export function carryPosture(
  stated: Posture,
  target: PostureMapping | undefined,
  choice: PermissionsChoice,
): Pick<PostureCarry, "posture" | "narrowedFrom" | "widened"> {
  if (!target) return { posture: stated };
  const meant = stated.native ? target.toPosture(stated.native.words) ?? stated : stated;
  if (withinPosture(meant, target.own)) return { posture: stated };
  const narrowed = narrowest(meant, target.own);
  if (target.words(narrowed) === target.words(stated)) return { posture: stated };
  if (choice === "keep") return { posture: stated, widened: true };
  return {
    posture: narrowed,
    narrowedFrom: { ...meant, ...(stated.native ? { native: stated.native } : {}) },
  };
}

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
  words: string | undefined,
  carry: PostureCarry | undefined,
  target: string,
  carried: boolean,
): ReportEntry[] {
  const entry = (code: string, severity: ReportEntry["severity"], detail: string): ReportEntry[] => [
    reportEntry(code, severity, detail),
  ];
  if (!words) return [];
  if (!carry || !carried) {
    return entry(
      "permission-posture",
      "loss",
      `permission posture "${words}" has no equivalent in ${target}`,
    );
  }
  const { posture, source } = carry;
  const mapping = carry.target.posture;
  if (!mapping) {
    return entry(
      "permission-posture",
      "loss",
      `permission posture "${words}" has no equivalent in ${target}`,
    );
  }
  const written = mapping.words(posture);
  if (carry.narrowedFrom) {
    const from = carry.narrowedFrom;
    const back = mapping.toPosture(written);
    const earlier = from.native ? `, the earlier hop's "${from.native.words}"` : "";
    return entry(
      "permission-posture-narrowed",
      "warning",
      `${source.posture?.describe ?? source.title} "${words}"${earlier} (${describe(from)}) written as ` +
        `${mapping.describe} "${written}"${
          back ? ` (${describe(back)})` : ""
        }: no wider than ${target} allows when told nothing; --permissions keep carries the source's as it was`,
    );
  }
  if (posture.native?.harness === target) {
    return entry(
      "permission-posture-restored",
      "info",
      `${mapping.describe} "${written}" restored as they were before the earlier hop (the source said "${words}")`,
    );
  }
  const back = mapping.toPosture(written);
  const stated = `${source.posture?.describe ?? source.title} "${words}" (${
    describe(posture)
  }) written as ${mapping.describe} "${written}"`;
  if (!back || !same(back, posture)) {
    // Which way it changed is the user's to know: asked more often, or let act where it asked before.
    const way = !back
      ? ""
      : withinPosture(back, posture)
      ? `, allowing no more than ${source.name} did`
      : `, allowing more than ${source.name} did`;
    return entry(
      "permission-posture-changed",
      "loss",
      `${stated}, which means ${
        back ? describe(back) : "something else"
      }${way}: ${target} has no exact equivalent`,
    );
  }
  if (carry.widened) {
    return entry(
      "permission-posture-widened",
      "warning",
      `${stated}: --permissions keep: ${target} lets the agent do more unasked than its own default (${
        describe(mapping.own)
      }), as it did in ${source.name}`,
    );
  }
  return entry("permission-posture-translated", "info", stated);
}
