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

/**
 * A resumed session keeps no mode (each run's flags and environment set it), so a written posture is one the
 * resume command can state. `assisted` is not among them: its flag needs Copilot's experimental features.
 */
type StatedMode = Exclude<Mode, "assisted">;

/** The stateable modes from the one that allows most to the one that allows least. */
const WIDEST_FIRST: StatedMode[] = ["allow-all", "manual", "plan"];

/** Own keys only: a word such as "constructor" is no mode (sessions are hostile input). */
const isMode = (words: string): words is Mode => Object.hasOwn(MODES, words);

/**
 * The stateable mode that allows most without allowing anything `posture` did not: never wider. A posture
 * narrower than `manual` gets `plan`, which changes nothing.
 */
export function copilotPermissionMode(posture: Posture): StatedMode {
  const native = posture.native?.harness === "copilot-cli" ? posture.native.words : undefined;
  if (native !== undefined && isMode(native) && native !== "assisted") return native;
  return WIDEST_FIRST.find((mode) => withinPosture(MODES[mode], posture)) ?? "plan";
}

/** The flags that start a resumed session in each mode; `manual` is what it runs in when told nothing. */
const MODE_ARGS: Record<StatedMode, string[]> = {
  "allow-all": ["--allow-all"],
  manual: [],
  plan: ["--plan"],
};

/** Values of COPILOT_ALLOW_ALL that turn it on (`copilot help environment`, 1.0.102). */
const ALLOW_ALL_ON = new Set(["true", "1", "yes", "on", "y"]);

/**
 * How the resume command states `posture`: the mode's flags, and COPILOT_ALLOW_ALL turned off when the
 * user's environment turns it on and the mode allows less (the variable would approve every tool unasked).
 */
export function copilotPostureCommand(
  posture: Posture,
  env: NodeJS.ProcessEnv,
): { args: string[]; variables: Record<string, string> } {
  const mode = copilotPermissionMode(posture);
  const allowAll = ALLOW_ALL_ON.has((env.COPILOT_ALLOW_ALL ?? "").trim().toLowerCase());
  return {
    args: MODE_ARGS[mode],
    variables: allowAll && mode !== "allow-all" ? { COPILOT_ALLOW_ALL: "false" } : {},
  };
}

export const copilotPosture: PostureMapping = {
  describe: "GitHub Copilot CLI permission mode (the resume command's flags)",
  // `manual`: what a resumed session runs in when no flag or command says otherwise.
  own: MODES.manual,
  toPosture: (words) => isMode(words) ? MODES[words] : undefined,
  words: copilotPermissionMode,
};
