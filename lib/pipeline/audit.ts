/**
 * The audit trail: what session-bridge changed (handoffs, undos, prunes, alias binds, skill installs), as
 * redacted events in `$SESSION_BRIDGE_HOME/events.db`, the same LazyBridge events table `events --db` writes.
 * Recording is a witness, not a step of the change: a trail that cannot be written is warned about and the
 * command's own outcome stands. Handoffs and undos are recorded alike wherever they are made (the CLI, the TUI),
 * each event saying which (`via`).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { refuseLinksBelow } from "../io/links.ts";
import { messageOf } from "../errors.ts";
import type { HandoffOutcome } from "./handoff.ts";
import type { UndoOutcome } from "./undo.ts";
import { EventLog, type Payload, type StoredEvent } from "../observe/event-log.ts";
import type { JsonValue } from "../observe/redact.ts";
import { Session } from "../observe/session.ts";

export const AUDIT_FILE = "events.db";
/** The event log's session id for session-bridge's own actions. */
export const AUDIT_SESSION = "session-bridge";

export type AuditAction =
  | "handoff"
  | "undo"
  | "prune"
  | "alias_bind"
  | "alias_rename"
  | "alias_forget"
  | "install_skill"
  | "uninstall_skill";

export function auditPath(bridgeHome: string): string {
  return join(bridgeHome, AUDIT_FILE);
}

/** Records one action, redacted; never throws (a failure is one warning). */
export function recordAudit(
  bridgeHome: string,
  action: AuditAction,
  details: Record<string, unknown>,
  warn: (line: string) => void,
  runId: string | null = null,
): void {
  const path = auditPath(bridgeHome);
  try {
    // SQLite follows links: the log and the files it keeps beside it are checked first (lib/io/links.ts).
    for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
      refuseLinksBelow(bridgeHome, file);
    }
    mkdirSync(bridgeHome, { recursive: true, mode: 0o700 });
    const bus = new Session({ sessionId: AUDIT_SESSION, db: path, warn });
    try {
      bus.emit(action, jsonOf(details) as Payload, runId);
    } finally {
      void bus.close();
    }
  } catch (error) {
    const why = messageOf(error);
    warn(`session-bridge: warning: the ${action} was done but could not be recorded in ${path}: ${why}`);
  }
}

/** Where a handoff or an undo was asked for. */
export type AuditVia = "cli" | "tui";

/** A handoff carried out, with what it wrote; a dry run or a refusal changed nothing and is not recorded. */
export function auditHandoff(
  bridgeHome: string,
  done: HandoffOutcome,
  via: AuditVia,
  warn: (line: string) => void,
): void {
  if (done.dryRun || done.refusal || done.op === undefined) return;
  recordAudit(
    bridgeHome,
    "handoff",
    {
      op: done.op,
      via,
      kind: done.kind,
      source: done.source,
      target: { harness: done.target.harness, id: done.target.id, cwd: done.target.cwd },
      files: done.files,
      databases: done.databases,
      backup: done.backup.paths,
      aliases: done.aliases?.followed ?? [],
      pruned: done.pruned?.remove.map((c) => c.path) ?? [],
    },
    warn,
    done.op,
  );
}

/** An undo carried out, with what it removed and restored; a dry run or a refusal is not recorded. */
export function auditUndo(
  bridgeHome: string,
  done: UndoOutcome,
  via: AuditVia,
  warn: (line: string) => void,
): void {
  if (done.dryRun || done.refusal) return;
  recordAudit(
    bridgeHome,
    "undo",
    {
      op: done.entry.op,
      via,
      source: done.entry.source,
      target: done.entry.target,
      removed: done.plan.remove,
      restored: done.plan.restore,
      pruned: done.pruned?.remove.map((c) => c.path) ?? [],
    },
    warn,
    done.entry.op,
  );
}

/** The trail, oldest first; empty when nothing was ever recorded (the file is not created by reading). */
export function auditTrail(bridgeHome: string): StoredEvent[] {
  const path = auditPath(bridgeHome);
  if (!existsSync(path)) return [];
  const log = new EventLog(path, AUDIT_SESSION);
  try {
    return log.query();
  } finally {
    log.close();
  }
}

/** Outcomes are plain data; a round trip through JSON drops what is not (undefined fields). */
function jsonOf(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}
