/**
 * Committing a file-only handoff (no database to register in): each planned file published atomically, a file in
 * the way replaced only under --force (or when the plan edits it, see PlannedFile.edits) and saved first, and on any failure every file written removed and every
 * replaced one put back, so nothing is half-written. Claude Code's store is files alone, and so is any harness
 * whose sessions are one file each.
 */
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Committed } from "./plan.ts";
import type { CommitOptions, PlannedFile } from "./types.ts";
import { copyIntoPlace, ensureDir, publishFile, removeEmptyDirs } from "../io/publish.ts";
import { entryPresent } from "../io/links.ts";
import { refuse } from "./refuse.ts";
import { backupFile } from "../store/backup.ts";

/** Replaced files are saved in the operation's backup folder (`backupFolder`); `id` names the session refused. */
export async function publishPlannedFiles(
  id: string,
  files: PlannedFile[],
  { force, backupFolder: saved, feedback }: CommitOptions,
): Promise<Committed> {
  const created: string[] = [];
  const written: string[] = [];
  const replaced: [path: string, backup: string][] = [];
  try {
    for (const file of files) {
      // A link there, even a dangling one, is replaced, and so saved (as the link it is) for undo to put back.
      const existed = entryPresent(file.path);
      if (existed && !force && !file.edits) {
        throw refuse.exists(id, file.path);
      }
      if (existed) replaced.push([file.path, backupFile(file.path, saved)!]);
      ensureDir(join(file.path, ".."), created);
      await publishFile(file.path, file.lines(), force || !!file.edits, feedback);
      if (!existed) written.push(file.path);
    }
  } catch (error) {
    for (const path of written) unlinkSync(path);
    for (const [path, backup] of replaced) copyIntoPlace(backup, path);
    removeEmptyDirs(created);
    throw error;
  }
  return {
    written,
    rows: [],
    backups: replaced.map(([, backup]) => backup),
    replaced: replaced.map(([path, backup]) => ({ path, backup })),
  };
}
