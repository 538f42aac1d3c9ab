/**
 * The agent skill (skills/session-handoff, embedded in the binary through lib/generated/skills.ts) and where
 * each harness looks for it: `<home>/<agent.skillsFolder>/session-handoff`, the home honouring the harness's
 * own variable (or the folder its `skillsBase` names, for a harness that keeps skills outside its home). The skill's files are written into session-bridge's own home first, and each harness gets a
 * symbolic link to them (or, with `copy`, a copy marked as ours), so it works from the single binary and one
 * update of the binary updates every link. A folder that is not ours is never replaced without `force`, and
 * even then it is moved aside, not deleted.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { SKILLS } from "../generated/skills.ts";
import { InputError } from "../errors.ts";
import type { Harness, Homes } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import { homeOf } from "../harnesses/homes.ts";
import { makeOwnFolder, refuseLinksBelow } from "../io/links.ts";

export const SKILL_NAME = "session-handoff";

/** The file a copy carries so that a later install or uninstall knows the folder is ours. */
export const COPY_MARKER = ".installed-by-session-bridge";

/** What is at a harness's skill path. */
export type SkillState =
  /** A link to session-bridge's copy of the skill. */
  | "linked"
  /** A copy session-bridge made, with the files this binary embeds. */
  | "copied"
  /** A copy session-bridge made from another version of the skill. */
  | "stale copy"
  /** Nothing. */
  | "absent"
  /** Something session-bridge did not put there (a user's own skill of that name, or a link elsewhere). */
  | "different";

export interface SkillLocation {
  harness: string;
  /** Where the harness looks for the skill. */
  path: string;
  /** Whether the harness is on this machine: its home exists or its executable is on PATH. */
  present: boolean;
  state: SkillState;
}

export interface SkillRequest {
  registry: Registry;
  homes: Homes;
  /** session-bridge's own folder: the skill's files are kept in `<bridgeHome>/skills/session-handoff`. */
  bridgeHome: string;
  /**
   * The caller's environment: PATH, to tell whether a harness without a home yet is installed, and the folders
   * a harness that keeps skills outside its home takes them from.
   */
  env: NodeJS.ProcessEnv;
  /** Only this harness (a name found by the caller); named, it is installed even when not yet present. */
  harness?: Harness;
}

/** Where session-bridge keeps the skill's files (what every link points to). */
export function skillSource(bridgeHome: string): string {
  return join(resolve(bridgeHome), "skills", SKILL_NAME);
}

const embedded = (): Readonly<Record<string, string>> => SKILLS[SKILL_NAME]!;

/** Harnesses that look for skills, limited to `harness` when one is named. */
function skillHarnesses({ registry, harness }: SkillRequest): Harness[] {
  const all = registry.harnesses.filter((h) => h.integrations.agent);
  if (harness && !harness.integrations.agent) {
    throw new InputError(`${harness.name} has no skills folder session-bridge knows`);
  }
  return harness ? [harness] : all;
}

/** The skill's install state for every harness that looks for skills: what `doctor` shows. */
export function skillStatus(request: SkillRequest): SkillLocation[] {
  return skillHarnesses(request).map((h) => locate(h, request));
}

function locate(h: Harness, request: SkillRequest): SkillLocation {
  const agent = h.integrations.agent!;
  const skills = join(agent.skillsBase?.(request.env) ?? homeOf(request.homes, h), agent.skillsFolder);
  const path = join(skills, SKILL_NAME);
  // The folder its skills folder sits in: a harness whose home is the user's own (its store a dot-folder in it)
  // has run here only when that dot-folder exists.
  const present = existsSync(dirname(skills)) || onPath(h.integrations.certify?.command, request.env);
  return { harness: h.name, path, present, state: stateAt(path, skillSource(request.bridgeHome)) };
}

function onPath(command: string | undefined, env: NodeJS.ProcessEnv): boolean {
  if (!command) return false;
  return (env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function stateAt(path: string, source: string): SkillState {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return "absent";
  }
  if (stat.isSymbolicLink()) {
    return resolve(dirname(path), readlinkSync(path)) === source ? "linked" : "different";
  }
  if (!stat.isDirectory() || !existsSync(join(path, COPY_MARKER))) return "different";
  return sameFiles(path) ? "copied" : "stale copy";
}

/** Whether a folder holds exactly the embedded files (besides the copy marker). */
function sameFiles(dir: string): boolean {
  const files = embedded();
  const names = readdirSync(dir).filter((n) => n !== COPY_MARKER).sort();
  return names.join("\n") === Object.keys(files).sort().join("\n") &&
    names.every((n) => readFileSync(join(dir, n), "utf8") === files[n]);
}

/** Writes the embedded files into `dir` (created), each only when its content differs. */
function writeSkill(dir: string, marker: boolean): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(embedded())) {
    const path = join(dir, name);
    if (existsSync(path) && readFileSync(path, "utf8") === text) continue;
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, path);
  }
  if (marker) writeFileSync(join(dir, COPY_MARKER), "session-bridge install-skill --copy\n");
}

export type InstallOutcome =
  | "linked"
  | "already linked"
  | "copied"
  | "already copied"
  | "updated"
  | "not installed"
  | "refused: a different skill is there"
  | "removed"
  | "not there";

export interface InstallLine extends SkillLocation {
  outcome: InstallOutcome;
  /** Where a different skill was moved with `force`. */
  movedAside?: string;
}

export interface InstallRequest extends SkillRequest {
  /** Copy the files instead of linking (for a harness or file system that does not follow links). */
  copy?: boolean;
  /** Replace (install) or remove (uninstall) a different skill of that name; it is moved aside, not deleted. */
  force?: boolean;
  now: Date;
}

/** Links (or copies) the skill into every present harness, or the named one. Idempotent. */
export function installSkill(request: InstallRequest): InstallLine[] {
  const source = skillSource(request.bridgeHome);
  // The skill's own files are kept in session-bridge's folder: never written through a link there.
  refuseLinksBelow(resolve(request.bridgeHome), source);
  writeSkill(source, false);
  return skillHarnesses(request).map((h) => {
    const at = locate(h, request);
    if (!at.present && !request.harness) return { ...at, outcome: "not installed" };
    const wanted = request.copy ? "copied" : "linked";
    if (at.state === wanted) return { ...at, outcome: request.copy ? "already copied" : "already linked" };
    if (at.state === "different" && !request.force) {
      return { ...at, outcome: "refused: a different skill is there" };
    }
    const movedAside = at.state === "different" ? moveAside(at, request) : undefined;
    if (at.state === "linked" || at.state === "copied" || at.state === "stale copy") {
      rmSync(at.path, { recursive: true });
    }
    mkdirSync(dirname(at.path), { recursive: true });
    if (request.copy) writeSkill(at.path, true);
    else symlinkSync(source, at.path, "dir");
    const outcome: InstallOutcome = at.state === "stale copy" && request.copy ? "updated" : wanted;
    return { ...at, state: wanted, outcome, ...(movedAside ? { movedAside } : {}) };
  });
}

/** Removes the skill where session-bridge put it; another skill of that name stays unless `force`. */
export function uninstallSkill(request: InstallRequest): InstallLine[] {
  return skillHarnesses(request).map((h) => {
    const at = locate(h, request);
    if (at.state === "absent") return { ...at, outcome: "not there" };
    if (at.state === "different" && !request.force) {
      return { ...at, outcome: "refused: a different skill is there" };
    }
    const movedAside = at.state === "different" ? moveAside(at, request) : undefined;
    if (!movedAside) rmSync(at.path, { recursive: true });
    return { ...at, state: "absent", outcome: "removed", ...(movedAside ? { movedAside } : {}) };
  });
}

/** A user's own skill, replaced or removed with force, is kept under session-bridge's home. */
function moveAside(at: SkillLocation, request: InstallRequest): string {
  const stamp = request.now.toISOString().replace(/[:.]/g, "-");
  const aside = join(
    resolve(request.bridgeHome),
    "backups",
    "skills",
    `${at.harness}-${SKILL_NAME}-${stamp}`,
  );
  makeOwnFolder(resolve(request.bridgeHome), dirname(aside));
  refuseLinksBelow(resolve(request.bridgeHome), aside);
  try {
    renameSync(at.path, aside);
  } catch (error) {
    // Another file system: copied, then removed.
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    cpSync(at.path, aside, { recursive: true, verbatimSymlinks: true });
    rmSync(at.path, { recursive: true });
  }
  return aside;
}
