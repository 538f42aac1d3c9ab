/**
 * The undo ledger: every handoff appends what it wrote (files with their hashes, rows with their keys, files it
 * replaced and where their old content went), so `session-bridge undo` can take exactly that back later, and
 * can tell when a harness has since appended to a file (the session was resumed) instead of deleting new work.
 */
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, existsSync, fstatSync, fsyncSync, readFileSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { KeyedRows } from "./rows.ts";
import { openOwnFile } from "../io/links.ts";

export interface LedgerEntry {
  op: string;
  at: string;
  source: { harness: string; id: string };
  target: { harness: string; id: string; path: string };
  written: { path: string; sha256: string }[];
  rows: KeyedRows[];
  replaced: ReplacedFile[];
  backups: string[];
}

/** A file a handoff replaced, where its old content was saved, and what the handoff left there. */
export interface ReplacedFile {
  path: string;
  backup: string;
  /** The hash of what the handoff left (null: it took the file away); absent in entries from before undo checked. */
  sha256?: string | null;
}

export interface UndoneMark {
  undone: string;
  at: string;
}

/** The ledger in session-bridge's own folder (see resolveBridgeHome). */
export function ledgerPath(bridgeHome: string): string {
  return join(bridgeHome, "ledger.jsonl");
}

/** The SHA-256 of the file at `path`, in hex, as the ledger records what a handoff wrote. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  // Read into one buffer, again and again: a stream's new buffer per read left the collector some 100 MB of
  // them after hashing a 700 MB session's rollout, the handoff's peak.
  const buffer = Buffer.allocUnsafe(HASH_READ_BYTES);
  const file = await open(path, "r");
  try {
    for (let read; (read = (await file.read(buffer, 0, buffer.length, null)).bytesRead) > 0;) {
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    await file.close();
  }
  return hash.digest("hex");
}

const HASH_READ_BYTES = 1024 * 1024;

function append(bridgeHome: string, record: LedgerEntry | UndoneMark): void {
  // Made if missing, opened without following a link (lib/io/links.ts): a linked ledger would put the record
  // in another file.
  const fd = openOwnFile(bridgeHome, ledgerPath(bridgeHome), "append");
  try {
    // A line cut short by a kill is ended first, so it cannot swallow the record appended after it.
    const torn = endsTorn(fd);
    appendFileSync(fd, `${torn ? "\n" : ""}${JSON.stringify(record)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function endsTorn(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/** Whether the ledger holds operation `op` (a handoff recorded, undone or not). */
export function recordedOperation(bridgeHome: string, op: string): boolean {
  return readRecords(bridgeHome).some((r) => "op" in r && r.op === op);
}

/** Whether the ledger says operation `op` was undone. */
export function recordedUndone(bridgeHome: string, op: string): boolean {
  return readRecords(bridgeHome).some((r) => "undone" in r && r.undone === op);
}

export function recordOperation(bridgeHome: string, entry: LedgerEntry): void {
  append(bridgeHome, entry);
}

export function markUndone(bridgeHome: string, op: string, now: Date): void {
  append(bridgeHome, undoneMark(op, now));
}

/** The record saying `op` was undone. */
export const undoneMark = (op: string, now: Date): UndoneMark => ({ undone: op, at: now.toISOString() });

/** The most bytes appending `record` takes: its line, and the newline ending a torn line before it. */
export const appendedBytes = (record: LedgerEntry | UndoneMark): number =>
  Buffer.byteLength(JSON.stringify(record)) + 2;

/** Operations not yet undone, newest last. */
export function pendingOperations(bridgeHome: string): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  const undone = new Set<string>();
  for (const record of readRecords(bridgeHome)) {
    if ("undone" in record) undone.add(record.undone);
    else entries.push(record);
  }
  return entries.filter((e) => !undone.has(e.op));
}

/** Every operation recorded, oldest first, each with whether it was undone since (for lineage). */
export function operationHistory(bridgeHome: string): (LedgerEntry & { undone: boolean })[] {
  const entries: LedgerEntry[] = [];
  const undone = new Set<string>();
  for (const record of readRecords(bridgeHome)) {
    if ("undone" in record) undone.add(record.undone);
    else entries.push(record);
  }
  return entries.map((e) => ({ ...e, undone: undone.has(e.op) }));
}

/** Every whole record, in order; a damaged line is skipped: the ledger must never block an undo. */
function readRecords(bridgeHome: string): (LedgerEntry | UndoneMark)[] {
  const path = ledgerPath(bridgeHome);
  if (!existsSync(path)) return [];
  const records: (LedgerEntry | UndoneMark)[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as LedgerEntry | UndoneMark);
    } catch {
      continue;
    }
  }
  return records;
}
