/**
 * Gemini CLI's approval modes (`--approval-mode`) by meaning. A session file records none: the mode is a flag
 * of each run, so a handoff into Gemini states the source's posture in the resume command it prints, and a
 * session read from Gemini has no posture to carry.
 *
 * What each mode means is read from the policies 0.61.0 ships (bundle/policies/*.toml):
 *   default    asks before every shell command, edit, write and web fetch (write.toml); only reading tools run
 *              unasked. That is asking before every action, as Codex's `untrusted` does (it lets reading
 *              commands through), more often than Claude Code's default or Codex's `on-request`.
 *   auto_edit  edits and writes inside the workspace run unasked (an allowed-path check), the shell still asks
 *   yolo       nothing asks, nothing is sandboxed
 *   plan       read-only: only reading tools and the plan file
 */
import { type Posture, type PostureMapping, withinPosture } from "../../posture/posture.ts";

type Mode = "default" | "auto_edit" | "yolo" | "plan";

const MODES: Record<Mode, Posture> = {
  default: { approval: "always", sandbox: "workspace-write" },
  auto_edit: { approval: "always", sandbox: "workspace-write", autoEdits: true },
  yolo: { approval: "never", sandbox: "full-access" },
  plan: { approval: "on-request", sandbox: "read-only" },
};

/** The modes from the one that allows most to the one that allows least. */
const WIDEST_FIRST: Mode[] = ["yolo", "auto_edit", "default", "plan"];

/** Own keys only: a word such as "constructor" is no mode. */
const isMode = (words: string): words is Mode => Object.hasOwn(MODES, words);

/**
 * The mode that allows most without allowing anything `posture` did not: never wider. A posture narrower than
 * every mode but `plan` (one that asks before every action and may change nothing) gets `plan`, which changes
 * nothing at all.
 */
export function geminiApprovalMode(posture: Posture): string {
  if (posture.native?.harness === "gemini-cli" && isMode(posture.native.words)) return posture.native.words;
  return WIDEST_FIRST.find((mode) => withinPosture(MODES[mode], posture)) ?? "plan";
}

export const geminiPosture: PostureMapping = {
  describe: "Gemini CLI approval mode (the resume command's --approval-mode)",
  // `--approval-mode default`, which a resume runs in when its settings say nothing.
  own: MODES.default,
  toPosture: (words) => isMode(words) ? MODES[words] : undefined,
  words: geminiApprovalMode,
};
