/**
 * One store-changing step (a handoff's register, an undo). Every step undoes its own partial work when it
 * fails (a temp file unlinked, files removed, a transaction rolled back); what it cannot know about is the
 * backup taken before it started, which then copies a store that never changed. Those are removed here, so a
 * refusal or a Ctrl-C leaves no orphan backup.
 */
import { backupMark, discardBackupsSince } from "./backup.ts";

export async function discardingBackupsOnFailure<T>(step: () => Promise<T>): Promise<T> {
  const mark = backupMark();
  try {
    return await step();
  } catch (error) {
    discardBackupsSince(mark);
    throw error;
  }
}
