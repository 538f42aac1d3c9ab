/**
 * Copilot CLI's permission modes by meaning, as its session events name them (`session.permissions_changed`,
 * 1.0.102's schema): `manual` (its default: every permission request follows the approval flow), `assisted`
 * (a model judges each request and the client may approve what it finds acceptable), `allow-all` (tool, path
 * and URL requests approved unasked: `--allow-all`, `--yolo`, `/allow-all`); and its `plan` session mode
 * (`--plan`, `session.mode_changed`), in which the agent prepares a plan before changing anything.
 *
 * What `manual` allows unasked, as Copilot's documentation describes it (not yet checked on the binary): the
 * reading tools (view, grep, glob) inside trusted folders, as Claude Code's default does; shell commands,
 * writes and edits ask.
 */
import { type Posture, type PostureMapping, withinPosture } from "../../posture/posture.ts";

type Mode = "manual" | "assisted" | "allow-all" | "plan";

const MODES: Record<Mode, Posture> = {
  manual: { approval: "on-request", sandbox: "workspace-write" },
  // The judge decides when to ask: the agent's side decides, as Codex's on-request, never "never".
  assisted: { approval: "on-request", sandbox: "workspace-write", autoEdits: true },
  "allow-all": { approval: "never", sandbox: "full-access" },
  plan: { approval: "on-request", sandbox: "read-only" },
};

/** The modes from the one that allows most to the one that allows least. */
const WIDEST_FIRST: Mode[] = ["allow-all", "assisted", "manual", "plan"];

/** Own keys only: a word such as "constructor" is no mode (sessions are hostile input). */
const isMode = (words: string): words is Mode => Object.hasOwn(MODES, words);

/**
 * The mode that allows most without allowing anything `posture` did not: never wider. A posture narrower than
 * `manual` gets `plan`, which changes nothing.
 */
export function copilotPermissionMode(posture: Posture): Mode {
  if (posture.native?.harness === "copilot-cli" && isMode(posture.native.words)) return posture.native.words;
  return WIDEST_FIRST.find((mode) => withinPosture(MODES[mode], posture)) ?? "plan";
}

export const copilotPosture: PostureMapping = {
  describe: "GitHub Copilot CLI permission mode",
  // `manual`: what a resumed session runs in when no flag or command says otherwise.
  own: MODES.manual,
  toPosture: (words) => isMode(words) ? MODES[words] : undefined,
  words: copilotPermissionMode,
};
