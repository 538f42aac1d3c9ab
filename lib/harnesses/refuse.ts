/**
 * One refusal policy for every harness store: the same situation is refused with the same error class, exit
 * code and message shape whichever harness the handoff goes to (tests/refusal-policy.test.ts holds the table).
 *
 * Everything a store refuses is a RefusedError (exit 1), reported in the plan's `refusal` so a dry run shows it
 * too: a well-formed request the target store will not take. Bad input the user typed (an unsafe or malformed
 * id, a cwd that is no directory) is an InputError (exit 2) and is refused before any store is looked at.
 */
import { InputError, messageOf, RefusedError } from "../errors.ts";
import { isBusy, lockedMessage } from "../store/sqlite.ts";
import { LinkRefusedError } from "../io/links.ts";

export const refuse = {
  /** The planned session id is taken in the target store (a row, or a file of that session), without --force. */
  exists: (id: string, where: string): RefusedError =>
    new RefusedError(
      `session ${id} already exists in ${where} (pass another --session-id, or --force to replace it: ` +
        `backed up first, undone by session-bridge undo)`,
    ),

  /** The target home has no state database: the harness never ran there, and one is never made up for it. */
  noStore: (harness: string, home: string, command: string): RefusedError =>
    new RefusedError(`no ${harness} state database in ${home} (run ${command} there once so it creates one)`),

  /** The target's database is there but cannot take a session: not SQLite, not this harness's, or a shape
   * (missing or unfillable columns) session-bridge will not guess at. */
  unusable: (database: string, why: string): RefusedError =>
    new RefusedError(`cannot write to ${database}: ${why}`),

  /** The target's database is a symbolic link: never written through (lib/io/links.ts), so a dry run says so. */
  linked: (database: string): RefusedError => new LinkRefusedError(database, "a harness's home"),

  /** Another process kept the target database locked for longer than a handoff waits. */
  locked: (database: string): RefusedError => new RefusedError(lockedMessage(database)),
};

/**
 * What reading the target's database while planning failed with, as a refusal: a database that is damaged, not
 * the harness's or of a shape session-bridge will not guess at is a store that refuses (exit 1), not bad input;
 * a lock is a lock. Anything else passes through unchanged: a bug, a failing disk, or bad input about another
 * file (a config.toml that does not parse stays exit 2).
 */
export function targetStoreRefusal(database: string, error: unknown): RefusedError {
  if (isBusy(error)) return refuse.locked(database);
  const message = messageOf(error);
  if (error instanceof InputError && message.startsWith(`${database}: `)) {
    return refuse.unusable(database, message.slice(database.length + 2));
  }
  if (error instanceof RefusedError) return error;
  throw error;
}
