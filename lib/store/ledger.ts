/**
 * The undo ledger: every handoff appends what it wrote (files with their hashes, rows with their keys, files it
 * replaced and where their old content went), so `session-bridge undo` can take exactly that back later, and
 * can tell when a harness has since appended to a file (the session was resumed) instead of deleting new work.
 */
import { createHash } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  createReadStream,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
} from "node:fs";
import { join } from "node:path";
import type { KeyedRows } from "./rows.ts";
import { ensureDir } from "../io/publish.ts";

export interface LedgerEntry {
  op: string;
  at: string;
  source: { harness: string; id: string };
  target: { harness: string; id: string; path: string };
  written: { path: string; sha256: string }[];
  rows: KeyedRows[];
  replaced: { path: string; backup: string }[];
  backups: string[];
}

interface UndoneMark {
  undone: string;
  at: string;
}

/** The ledger in session-bridge's own folder (see resolveBridgeHome). */
export function ledgerPath(bridgeHome: string): string {
  return join(bridgeHome, "ledger.jsonl");
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function append(bridgeHome: string, record: LedgerEntry | UndoneMark): void {
  ensureDir(bridgeHome, []);
  const fd = openSync(ledgerPath(bridgeHome), "a", 0o600);
  try {
    appendFileSync(fd, `${JSON.stringify(record)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function recordOperation(bridgeHome: string, entry: LedgerEntry): void {
  append(bridgeHome, entry);
}

export function markUndone(bridgeHome: string, op: string, now: Date): void {
  append(bridgeHome, { undone: op, at: now.toISOString() });
}

/** Operations not yet undone, newest last. A damaged line is skipped: the ledger must never block an undo. */
export function pendingOperations(bridgeHome: string): LedgerEntry[] {
  const path = ledgerPath(bridgeHome);
  if (!existsSync(path)) return [];
  const entries: LedgerEntry[] = [];
  const undone = new Set<string>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as LedgerEntry | UndoneMark;
      if ("undone" in record) undone.add(record.undone);
      else entries.push(record);
    } catch {
      continue;
    }
  }
  return entries.filter((e) => !undone.has(e.op));
}
