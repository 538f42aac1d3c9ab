/**
 * Where Gemini CLI keeps sessions in its store (`<home>/.gemini/`): one folder per project under `tmp/` (named
 * by the slug `projects.json` maps the project's path to; older versions named it by the path's sha256), each
 * with `chats/session-<time>-<id8>.jsonl` (a legacy `.json` before 0.61's JSONL) and a `.project_root` file
 * holding the project's path; a subagent's log is `chats/<parent session id>/<subagent id>.jsonl`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { byCodeUnit } from "../../io/compare.ts";
import { assertNotLinkLoop, directoryIfPresent, regularFileIfPresent } from "../../io/file-kind.ts";
import { isObject } from "../../io/json.ts";

const SESSION_FILE = /^session-.+\.jsonl?$/;

/** Every main session file of the store, a legacy `.json` only where no `.jsonl` copy of it was made. */
export function sessionFiles(store: string): string[] {
  const tmp = join(store, "tmp");
  const out: string[] = [];
  for (const project of entries(tmp)) {
    if (!project.isDirectory()) continue;
    const chats = join(tmp, project.name, "chats");
    const names = entries(chats).filter((e) => e.isFile() && SESSION_FILE.test(e.name)).map((e) => e.name);
    const present = new Set(names);
    for (const name of names) {
      if (name.endsWith(".json") && present.has(`${name}l`)) continue;
      out.push(join(chats, name));
    }
  }
  return out;
}

/** What a session id must look like to name its subagents' folder (Gemini's are UUIDs). */
const SUBAGENT_FOLDER = /^[A-Za-z0-9._-]{1,128}$/;

/** A session file's subagent logs: `chats/<session id>/*.jsonl`, in name order. */
export function subagentFiles(sessionPath: string, sessionId: string): string[] {
  // The id comes from the file (untrusted): only one plain path component names a folder beside it, never a
  // path elsewhere or a name too long for the file system.
  if (!SUBAGENT_FOLDER.test(sessionId) || sessionId === "." || sessionId === "..") return [];
  const dir = join(dirname(sessionPath), sessionId);
  return entries(dir).filter((e) => e.isFile() && e.name.endsWith(".jsonl")).map((e) => join(dir, e.name));
}

/**
 * The project path of a session file: its project folder's `.project_root`, else the path `projects.json`
 * maps to the folder's slug. Undefined for a file outside a store's layout.
 */
export function projectPathOf(
  sessionPath: string,
  projects: ReadonlyMap<string, string>,
): string | undefined {
  const projectDir = dirname(dirname(sessionPath));
  const root = join(projectDir, ".project_root");
  if (regularFileIfPresent(root)) {
    const text = readFileSync(root, "utf8").trim();
    if (text) return text;
  }
  return projects.get(basename(projectDir));
}

/** `projects.json`'s map, reversed: slug to project path. A missing or unreadable file maps nothing. */
export function projectsBySlug(store: string): Map<string, string> {
  const path = join(store, "projects.json");
  const out = new Map<string, string>();
  if (!existsSync(path)) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return out;
  }
  const projects = isObject(parsed) && isObject(parsed.projects) ? parsed.projects : {};
  for (const [cwd, slug] of Object.entries(projects)) if (typeof slug === "string") out.set(slug, cwd);
  return out;
}

/** The store a session file sits in (`<store>/tmp/<slug>/chats/<file>`), when it sits in one. */
export function storeOfSession(sessionPath: string): string | undefined {
  const chats = dirname(sessionPath);
  const tmp = dirname(dirname(chats));
  return basename(chats) === "chats" && basename(tmp) === "tmp" ? dirname(tmp) : undefined;
}

/** A folder's entries in name order (none when it is absent); a link that loops there fails naming it. */
function entries(dir: string) {
  if (!directoryIfPresent(dir)) return [];
  const list = readdirSync(dir, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name));
  for (const entry of list) assertNotLinkLoop(dir, entry);
  return list;
}
