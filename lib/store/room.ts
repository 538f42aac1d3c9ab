/**
 * How much room in session-bridge's own folder an operation's records take once its commit is made: a
 * handoff's ledger entry and provenance, an undo's undone mark. It is reserved with the intent
 * (lib/store/intent.ts), before the commit, so a disk or quota with room for the backups but not for the
 * records refuses the operation with nothing written, instead of committing and then failing to record it.
 * Each figure is an upper bound: the records' exact content is known only after the commit.
 */
import { basename, join } from "node:path";
import type { Intent, UndoIntent } from "./intent.ts";
import { appendedBytes, type LedgerEntry, undoneMark } from "./ledger.ts";

/**
 * What a new block may take for each file or folder a record creates or extends: file systems allocate whole
 * blocks (4 KiB on ext4 and tmpfs, up to 64 KiB elsewhere).
 */
const BLOCK = 64 * 1024;

/** The longest path a commit may name that its plan did not (a clashing rollout it moves aside). */
const PATH_MAX = 4096;

/**
 * The largest entry the handoff can append (every planned file both written and replaced, every database
 * backed up and its rows restored from there, and an unplanned file replaced), and its provenance file of
 * `provenanceBytes` (0: none) with the folders it may need.
 */
export function handoffRecordRoom(intent: Intent, provenanceBytes: number): number {
  const backupOf = (path: string) => join(intent.backupFolder, basename(path));
  const unplanned = "/".repeat(PATH_MAX);
  const largest: LedgerEntry = {
    op: intent.op,
    at: intent.at,
    source: intent.source,
    target: intent.target,
    written: intent.files.map((f) => ({ path: f.path, sha256: "0".repeat(64) })),
    rows: intent.rows.map(({ before: _, ...rows }) => ({
      ...rows,
      count: Number.MAX_SAFE_INTEGER,
      restoreFrom: backupOf(rows.database),
    })),
    replaced: [...intent.files.map((f) => f.path), unplanned].map((path) => ({
      path,
      backup: backupOf(path),
    })),
    backups: [...intent.files.map((f) => f.path), ...intent.databases, unplanned].map(backupOf),
  };
  // The provenance file, and the two folders it may need (`provenance/<harness>/`).
  const provenance = provenanceBytes ? provenanceBytes + 3 * BLOCK : 0;
  return appendedBytes(largest) + BLOCK + provenance;
}

/** The undone mark the undo appends at its end. */
export function undoRecordRoom(intent: UndoIntent): number {
  return appendedBytes(undoneMark(intent.op, new Date(intent.at))) + BLOCK;
}
