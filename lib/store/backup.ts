/**
 * Backups taken before any write to an existing store object. Files are copied; SQLite databases go through
 * the online backup API, which reads a consistent snapshot even while another process writes (issue #3, #4).
 */
import { copyFileSync, existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { ensureDir } from "../io/publish.ts";

/** session-bridge's own folder: backups and the undo ledger. */
export function bridgeHome(): string {
  return process.env.SESSION_BRIDGE_HOME || join(homedir(), ".session-bridge");
}

/** A fresh folder for one operation's backups, named so they sort by time. */
export function backupDir(label: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return join(bridgeHome(), "backups", `${stamp}-${label}`);
}

export function backupFile(path: string, dir: string): string | undefined {
  if (!existsSync(path)) return undefined;
  ensureDir(dir, []);
  const target = join(dir, basename(path));
  copyFileSync(path, target);
  return target;
}
