/**
 * Where Codex keeps its threads: rollout files under `sessions/YYYY/MM/DD/` (and `archived_sessions/`), and
 * their index, the `threads` table of the newest `state_N.sqlite`.
 */
import { readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { byCodeUnit } from "../../io/compare.ts";
import { assertNotLinkLoop, directoryIfPresent } from "../../io/file-kind.ts";

export const SESSIONS_DIR = "sessions";
export const ARCHIVED_DIR = "archived_sessions";

const ROLLOUT_NAME =
  /^rollout-(\d{4})-(\d{2})-(\d{2})T\d{2}-\d{2}-\d{2}-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const STATE_DB = /^state_(\d+)\.sqlite$/;

/** The thread id a rollout file name carries, or undefined for any other file. */
export function rolloutId(name: string): string | undefined {
  return ROLLOUT_NAME.exec(name)?.[4]?.toLowerCase();
}

/** Codex's state database is versioned in its name; the newest generation is the live one. */
export function newestStateDb(home: string): string | undefined {
  if (!directoryIfPresent(home)) return undefined;
  const newest = readdirSync(home)
    .map((name) => ({ name, generation: Number(STATE_DB.exec(name)?.[1] ?? Number.NaN) }))
    .filter((f) => Number.isFinite(f.generation))
    .sort((a, b) => b.generation - a.generation)[0];
  return newest ? join(home, newest.name) : undefined;
}

export interface RolloutFile {
  id: string;
  path: string;
  archived: boolean;
}

/** Every rollout file, live and archived, in path order (which is creation order within each folder). */
export function rolloutFiles(home: string): RolloutFile[] {
  const out: RolloutFile[] = [];
  for (const [dir, archived] of [[SESSIONS_DIR, false], [ARCHIVED_DIR, true]] as const) {
    walk(join(home, dir), (path, name) => {
      const id = rolloutId(name);
      if (id) out.push({ id, path, archived });
    });
  }
  return out;
}

/** Real folders and files under `dir`; a link that loops there fails the walk naming it. */
function walk(dir: string, visit: (path: string, name: string) => void): void {
  if (!directoryIfPresent(dir)) return;
  for (
    const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name))
  ) {
    assertNotLinkLoop(dir, entry);
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else if (entry.isFile()) visit(path, entry.name);
  }
}

/** The Codex home a rollout lives in, when it sits where Codex keeps rollouts. */
export function homeOfRollout(path: string): string | undefined {
  const parts = path.split(sep);
  const at = parts.findLastIndex((p) => p === SESSIONS_DIR || p === ARCHIVED_DIR);
  return at > 0 ? parts.slice(0, at).join(sep) : undefined;
}

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`, in local time as Codex names its own files. */
/**
 * The moment a UUIDv7 thread id was minted (its first 48 bits), which names its rollout file: so a dry run's
 * plan and the run it prints (same --session-id, a few seconds later) name the same file.
 */
export function mintedAt(id: string): Date | undefined {
  const hex = id.replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex) || hex[12] !== "7") return undefined;
  return new Date(Number.parseInt(hex.slice(0, 12), 16));
}

export function rolloutPath(home: string, id: string, at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const [y, mo, d] = [String(at.getFullYear()), pad(at.getMonth() + 1), pad(at.getDate())];
  const time = `${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
  return join(home, SESSIONS_DIR, y, mo, d, `rollout-${y}-${mo}-${d}T${time}-${id}.jsonl`);
}
