/**
 * Finishing or rolling back handoffs a crash interrupted, from their write-ahead intents (intent.ts). A commit
 * is one step a kill cannot split: rows go in one transaction, a file is linked into place whole. So an intent
 * tells which side of it the kill fell on:
 *   - committed (its rows differ from what they were, or, with no rows, every file is in place): the ledger
 *     gets the operation as the handoff would have recorded it, so `undo` sees the session;
 *   - not committed: what exists of it is removed (files it created, folders it made), files it replaced are
 *     put back from their backups, and its backup folder goes (it copies a store that never changed).
 * Either way its debris goes too: the hidden temp files of its publishes (named after the intent's process),
 * a torn backup manifest, an undo's lock on its operation, and a handoff's lock folders in the target store
 * still as its commit stamped them. Nothing is removed that the intent does not name.
 *
 * An undo cut short is decided the same way (lib/store/undo.ts): if it had changed anything (rows deleted, a
 * file removed or put back, the ledger told), its remaining steps are carried out and the ledger says undone;
 * if not, its own backups go and the handoff stays pending, undoable again.
 */
import type { Feedback } from "../io/progress.ts";
import { existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { MANIFEST, readManifest } from "./backup.ts";
import { type LedgerEntry, recordedOperation, recordOperation, sha256File } from "./ledger.ts";
import {
  type AnyIntent,
  fileStamp,
  type Intent,
  type OutputIntent,
  removeIntent,
  rowsFingerprint,
  sameStamp,
  type UndoIntent,
} from "./intent.ts";
import { applyUndo, matchingRows, noteUndone, undoCommitted } from "./undo.ts";
import { hashReplaced } from "./replaced.ts";
import { removeStaleLock } from "./operation-lock.ts";
import { copyIntoPlace, isPublishTemp } from "../io/publish.ts";
import { onSchedule } from "../io/lock-folder.ts";

export interface RecoveryPlan {
  intent: AnyIntent;
  /**
   * `complete`: the commit happened, and the rest is done (a handoff is recorded in the ledger, an undo
   * finishes); `roll back`: it did not, and what exists of it goes.
   */
  action: "complete" | "roll back";
  /** Files and folders removed (created by the handoff, removed by the undo, or debris). */
  remove: string[];
  /** Files put back from their backups. */
  restore: { path: string; backup: string }[];
}

/** Decides, read-only, what recovering one interrupted handoff, undo, convert or export does. */
export function planRecovery(intent: AnyIntent, bridgeHome: string): RecoveryPlan {
  switch (intent.kind) {
    case "handoff":
      return planHandoffRecovery(intent);
    case "undo":
      return planUndoRecovery(intent, bridgeHome);
    case "output":
      return planOutputRecovery(intent);
  }
}

/** A file appears whole or not at all: only the temp file it was filling (and its sidecars') goes. */
function planOutputRecovery(intent: OutputIntent): RecoveryPlan {
  const now = fileStamp(intent.target.path);
  return {
    intent,
    action: now && !sameStamp(now, intent.before) ? "complete" : "roll back",
    remove: debris([intent.target.path, ...(intent.sidecars ?? [])], intent),
    restore: [],
  };
}

function planUndoRecovery(intent: UndoIntent, bridgeHome: string): RecoveryPlan {
  const left = debris(intent.restore.map((r) => r.path), intent);
  if (!undoCommitted(intent, bridgeHome)) {
    return {
      intent,
      action: "roll back",
      remove: [...left, ...(existsSync(intent.backupFolder) ? [intent.backupFolder] : [])],
      restore: [],
    };
  }
  return {
    intent,
    action: "complete",
    remove: [...intent.remove.map((f) => f.path).filter((p) => existsSync(p)), ...left],
    restore: intent.restore.map(({ path, backup }) => ({ path, backup })),
  };
}

function planHandoffRecovery(intent: Intent): RecoveryPlan {
  const action = committed(intent) ? "complete" : "roll back";
  const remove = debris([...intent.files.map((f) => f.path), ...(intent.sidecars ?? [])], intent);
  const restore: RecoveryPlan["restore"] = [];
  if (action === "roll back") {
    for (const file of intent.files) if (!file.before && existsSync(file.path)) remove.push(file.path);
    for (const copy of fileCopies(intent)) {
      const planned = intent.files.find((f) => f.path === copy.path);
      const now = fileStamp(copy.path);
      // Put back only what the handoff changed: a copy is complete before its original is ever replaced.
      if (!now || (planned?.before && !sameStamp(now, planned.before))) restore.push(copy);
    }
    if (existsSync(intent.backupFolder)) remove.push(intent.backupFolder);
  }
  // Either way the harness's locks its commit held go, unless the harness has refreshed or taken one over since.
  for (const lock of intent.locks ?? []) if (onSchedule(lock.path, lock.stamp)) remove.push(lock.path);
  return { intent, action, remove, restore };
}

/** Carries a recovery out; returns the ledger entry a completed handoff now has. */
export async function carryOutRecovery(
  plan: RecoveryPlan,
  bridgeHome: string,
  feedback?: Feedback,
): Promise<LedgerEntry | undefined> {
  const { intent } = plan;
  if (intent.kind === "output") {
    for (const path of plan.remove) rmSync(path, { force: true });
    removeIntent(bridgeHome, intent);
    return undefined;
  }
  if (intent.kind === "undo") {
    // Finishing runs the undo's own remaining steps; either way its debris goes (a rollback: its backups too).
    if (plan.action === "complete") {
      await applyUndo(intent, { finishing: true, feedback });
      noteUndone(intent, bridgeHome, new Date(intent.at));
    }
    for (const path of plan.remove) {
      if (!intent.remove.some((f) => f.path === path)) rmSync(path, { recursive: true, force: true });
    }
    // The killed undo's lock on the operation goes too (unless another undo of it has taken it over since).
    removeStaleLock(bridgeHome, intent.op);
    removeIntent(bridgeHome, intent);
    return undefined;
  }
  let entry: LedgerEntry | undefined;
  if (plan.action === "complete" && !recordedOperation(bridgeHome, intent.op)) {
    entry = await completedEntry(intent);
    recordOperation(bridgeHome, entry);
  }
  for (const { path, backup } of plan.restore) copyIntoPlace(backup, path);
  const locks = intent.locks ?? [];
  for (const path of plan.remove) {
    if (!locks.some((lock) => lock.path === path)) rmSync(path, { recursive: true, force: true });
  }
  // Last, as the commit would have released them; each looked at again: the harness may have taken it over since.
  for (const { path, stamp } of locks) {
    if (plan.remove.includes(path) && onSchedule(path, stamp)) rmdirSync(path);
  }
  if (plan.action === "roll back") {
    for (const dir of [...intent.folders].reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty (something else is there now) or already gone: it stays.
      }
    }
  }
  removeIntent(bridgeHome, intent);
  return entry;
}

function committed(intent: Intent): boolean {
  if (intent.rows.length) {
    // One transaction wrote them all: any that changed means the whole commit happened.
    return intent.rows.some((r) => existsSync(r.database) && rowsFingerprint(r) !== r.before);
  }
  return intent.files.every((f) => {
    const now = fileStamp(f.path);
    return now !== undefined && (!f.before || !sameStamp(now, f.before));
  });
}

/** The backups of files (not databases) in the intent's backup folder, by what they copy. */
function fileCopies(intent: Intent): { path: string; backup: string }[] {
  const manifest = readManifest(intent.backupFolder);
  if (!manifest) return [];
  return Object.entries(manifest.copies)
    .filter(([, original]) => !intent.databases.includes(original))
    .map(([copy, original]) => ({ path: original, backup: join(intent.backupFolder, copy) }));
}

/**
 * Hidden temp files the intent's process left writing `paths` (publishes, files put back), and a manifest cut
 * short in its backup folder.
 */
function debris(paths: string[], intent: AnyIntent): string[] {
  const found: string[] = [];
  for (const path of paths) {
    let names: string[];
    try {
      names = readdirSync(dirname(path));
    } catch {
      continue;
    }
    for (const name of names) {
      if (isPublishTemp(name, path, intent.pid)) found.push(join(dirname(path), name));
    }
  }
  if (intent.kind === "output") return found;
  const torn = join(intent.backupFolder, `.${MANIFEST}.tmp`);
  if (existsSync(torn)) found.push(torn);
  return found;
}

/** The ledger entry the interrupted handoff would have written after its commit. */
async function completedEntry(intent: Intent): Promise<LedgerEntry> {
  const copies = readManifest(intent.backupFolder)?.copies ?? {};
  const databaseBackup = (database: string) => {
    const copy = Object.keys(copies).find((c) => copies[c] === database);
    return copy ? join(intent.backupFolder, copy) : undefined;
  };
  const written = await Promise.all(
    intent.files.filter((f) => !f.before && existsSync(f.path)).map(async (f) => ({
      path: f.path,
      sha256: await sha256File(f.path),
    })),
  );
  return {
    op: intent.op,
    at: intent.at,
    source: intent.source,
    target: intent.target,
    written,
    rows: intent.rows.map(({ before, ...rows }) => {
      const restoreFrom = before !== null ? databaseBackup(rows.database) : undefined;
      return { ...rows, count: matchingRows(rows), ...(restoreFrom ? { restoreFrom } : {}) };
    }),
    replaced: await hashReplaced(fileCopies(intent).filter((c) => basename(c.backup) !== MANIFEST)),
    backups: Object.keys(copies).map((c) => join(intent.backupFolder, c)),
  };
}
