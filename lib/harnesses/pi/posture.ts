/**
 * Pi's permission posture by meaning. Pi never asks: every tool it offers runs unasked, unsandboxed (0.73.1 has
 * no approval prompt or sandbox; its README says so of itself). What a run may do is the tools it is given: the
 * default set (`read`, `bash`, `edit`, `write`), or only reading ones with `--tools read,grep,find,ls`. A
 * session file records neither: the tool set is a flag of each run, so a handoff into Pi states the source's
 * posture in the printed resume command, and a session read from Pi has no posture to carry.
 *
 *   default    read, bash, edit, write: nothing asks, nothing is sandboxed
 *   read-only  read, grep, find, ls: nothing asks, nothing is changed
 */
import { type Posture, type PostureMapping, withinPosture } from "../../posture/posture.ts";

type ToolSet = "default" | "read-only";

const TOOL_SETS: Record<ToolSet, Posture> = {
  default: { approval: "never", sandbox: "full-access" },
  "read-only": { approval: "never", sandbox: "read-only" },
};

/** The arguments that give a run each tool set (none for Pi's own default). */
export const TOOL_SET_ARGS: Record<ToolSet, readonly string[]> = {
  default: [],
  "read-only": ["--tools", "read,grep,find,ls"],
};

/** Own keys only: a word such as "constructor" is no tool set. */
const isToolSet = (words: string): words is ToolSet => Object.hasOwn(TOOL_SETS, words);

/**
 * The tool set that allows most without allowing anything `posture` did not: never wider. Pi cannot ask, so a
 * posture that asks before changing anything gets the reading tools only, which change nothing.
 */
export function piToolSet(posture: Posture): ToolSet {
  if (posture.native?.harness === "pi" && isToolSet(posture.native.words)) return posture.native.words;
  return withinPosture(TOOL_SETS.default, posture) ? "default" : "read-only";
}

export const piPosture: PostureMapping = {
  describe: "Pi tool set (the resume command's --tools)",
  // Told nothing, Pi runs every default tool unasked.
  own: TOOL_SETS.default,
  toPosture: (words) => isToolSet(words) ? TOOL_SETS[words] : undefined,
  words: piToolSet,
};
