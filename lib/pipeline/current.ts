/**
 * `current`: the session of the harness that is running us, so an agent can hand off its own session. Each
 * harness says in its descriptor (`agent`) what it tells the commands it runs: Claude Code 2.x sets
 * CLAUDE_CODE_SESSION_ID, Codex CODEX_THREAD_ID, Hermes HERMES_SESSION_ID (read in each one's code and seen
 * live by running it offline). Rules, in order:
 * - `variable`: a harness's session variable names an id its store lists;
 * - `newest-in-directory`: the harness is known (a marker variable such as CLAUDECODE, or its process among our
 *   ancestors) but names no session: its newest session recorded in this directory.
 * When harnesses are nested (Codex started from Claude Code's shell inherits CLAUDE_CODE_SESSION_ID), the one
 * whose process is the nearest ancestor is ours; without ancestors to tell, `--from` must say. A harness seen
 * only as a parent process (its variables not passed on) counts when no harness set a variable. No sign of a
 * harness is a refusal: nothing is guessed across harnesses.
 */
import { readFileSync, realpathSync } from "node:fs";
import { basename, resolve } from "node:path";
import { InputError, RefusedError } from "../errors.ts";
import type { Harness, Homes, SessionSummary } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import { homeOf } from "../harnesses/homes.ts";
import { listStores } from "../harnesses/stores.ts";
import { newestFirst } from "./newest.ts";

export type CurrentRule = "variable" | "newest-in-directory";

export interface CurrentRequest {
  registry: Registry;
  homes: Homes;
  /** The environment this process was started with (the harness's variables are in it). */
  env: NodeJS.ProcessEnv;
  /** The directory the agent runs the command in. Default: this process's. */
  cwd?: string;
  /** Look for this harness's session only (the nested case, or a harness that names none). */
  from?: Harness;
  /**
   * The command lines of this process's ancestors, nearest first. Default: read from /proc (none elsewhere).
   */
  ancestors?: readonly (readonly string[])[];
}

export interface CurrentSession {
  harness: Harness;
  session: SessionSummary;
  rule: CurrentRule;
  /** Why this session, in words: the variable that named it, or what identified the harness. */
  because: string;
}

export async function currentSession(request: CurrentRequest): Promise<CurrentSession> {
  const { registry, env } = request;
  const cwd = request.cwd ?? process.cwd();
  const ancestors = request.ancestors ?? processAncestors();
  const nearest = (h: Harness) => ancestors.findIndex((argv) => runs(argv, h));
  const signs = (h: Harness) => ({
    variable: h.integrations.agent?.sessionVariables.find((v) => env[v]),
    marker: h.integrations.agent?.markers.find((v) => env[v]),
    depth: nearest(h),
  });
  const all = (request.from ? [request.from] : registry.harnesses).map((h) => ({ harness: h, ...signs(h) }));
  const byDepth = (a: { depth: number }, b: { depth: number }) =>
    (a.depth < 0 ? Infinity : a.depth) - (b.depth < 0 ? Infinity : b.depth);
  // The environment is the harness's own word; a parent process alone (its variables not passed on) is only
  // taken when no harness set any.
  const told = all.filter((c) => c.variable || c.marker).sort(byDepth);
  const ranked = told.length ? told : all.filter((c) => c.depth >= 0).sort(byDepth);
  if (!ranked.length) {
    const watched = all.flatMap((c) => c.harness.integrations.agent?.sessionVariables ?? []);
    throw new RefusedError(
      `no harness is running this command${request.from ? ` (looked for ${request.from.name})` : ""}: ` +
        `none of ${watched.join(", ")} is set and no harness process is among its parents ` +
        "(name the session instead: session-bridge list)",
    );
  }
  if (ranked.length > 1 && ranked[0]!.depth < 0) {
    throw new InputError(
      `more than one harness could be running this command (${
        ranked.map((c) => c.harness.name).join(", ")
      }); ` +
        "say which with --from H",
    );
  }
  const chosen = ranked[0]!;
  const { harness } = chosen;
  const { sessions } = await listStores([harness], request.homes);
  const home = homeOf(request.homes, harness);
  if (chosen.variable) {
    const id = env[chosen.variable]!;
    const row = sessions.find((s) => s.id === id);
    if (!row) {
      throw new RefusedError(
        `${chosen.variable} names ${JSON.stringify(id)}, which ${harness.name}'s store in ${home} does not ` +
          `list (is ${harness.home.env} the home this ${harness.title} uses?)`,
      );
    }
    return {
      harness,
      session: row,
      rule: "variable",
      because: `${chosen.variable}, set by ${harness.title} for the commands it runs`,
    };
  }
  const here = sameDirectory(cwd);
  const row = newestFirst(sessions.filter((s) => s.cwd !== undefined && here(s.cwd)))[0];
  const sign = chosen.marker ? `${chosen.marker} is set` : `${harness.title} is a parent process`;
  if (!row) {
    throw new RefusedError(`${sign}, but ${harness.name} has no session recorded in ${cwd} (in ${home})`);
  }
  return {
    harness,
    session: row,
    rule: "newest-in-directory",
    because: `${sign} but names no session: the newest ${harness.name} session recorded in this directory`,
  };
}

/** Whether a command line runs this harness's executable (directly, or as a script: `python .../hermes`). */
function runs(argv: readonly string[], harness: Harness): boolean {
  const command = harness.integrations.certify?.command;
  return !!command && argv.slice(0, 2).some((word) => basename(word) === command);
}

/** Whether a recorded directory is `cwd` (compared as given and through symbolic links). */
function sameDirectory(cwd: string): (recorded: string) => boolean {
  const forms = new Set([resolve(cwd), realOrSelf(cwd)]);
  return (recorded) => forms.has(resolve(recorded)) || forms.has(realOrSelf(recorded));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

const MAX_ANCESTORS = 32;

/**
 * This process's ancestors' command lines, nearest first, from /proc (Linux). Elsewhere, or when /proc hides
 * them, none: the harness is then known by its variables alone.
 */
export function processAncestors(): string[][] {
  const found: string[][] = [];
  let pid = process.ppid;
  while (pid > 1 && found.length < MAX_ANCESTORS) {
    try {
      found.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean));
      // The parent pid is the field after the parenthesized command name, which may itself hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      break;
    }
  }
  return found;
}
