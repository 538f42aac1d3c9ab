/**
 * What a handoff left at each path it replaced (`--force` over an existing file), recorded in the undo ledger
 * beside the backup of what was there before: undo compares the file with it, so a session resumed since the
 * handoff (the harness appended a turn) is never silently put back to its old content.
 */
import { existsSync } from "node:fs";
import { type ReplacedFile, sha256File } from "./ledger.ts";

/** Each replaced file with the hash of what is at its path now (null: nothing, the handoff took it away). */
export function hashReplaced(replaced: { path: string; backup: string }[]): Promise<ReplacedFile[]> {
  return Promise.all(
    replaced.map(async ({ path, backup }) => ({
      path,
      backup,
      sha256: existsSync(path) ? await sha256File(path) : null,
    })),
  );
}

/**
 * Whether putting the backup back over `file` would lose something written since the handoff. A file gone
 * since loses nothing; an entry recorded before replaced files were hashed cannot tell, so it counts as changed
 * (a forced undo saves the file first).
 */
export async function replacedChanged(file: ReplacedFile): Promise<boolean> {
  if (!existsSync(file.path)) return false;
  if (file.sha256 === undefined || file.sha256 === null) return true;
  return (await sha256File(file.path)) !== file.sha256;
}
