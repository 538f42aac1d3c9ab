/**
 * Hermes session ids. The CLI names a session `YYYYMMDD_HHMMSS_<6 hex>` from the local time it started
 * (cli.py); a handed-off session gets one from its source's start, so it sorts and reads like the original.
 * Hermes accepts any id string on `--resume`, but ids also name snapshot files, so they must be safe as a path
 * component.
 */
import type { Session } from "../../ir/schema.ts";
import { assertSafeId, randomHex, sha256Hex } from "../../ids.ts";

const two = (n: number) => String(n).padStart(2, "0");

export function newHermesId(now: Date, session?: Session): string {
  const started = session?.meta.createdAt ? new Date(session.meta.createdAt) : now;
  const at = Number.isFinite(started.getTime()) && started <= now ? started : now;
  const stamp = `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}_` +
    `${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
  return `${stamp}_${randomHex(3)}`;
}

export function checkHermesId(id: string): string {
  return assertSafeId(id);
}

/**
 * The file-name component Hermes (0.19) gives a session's files, `sessions/session_<component>.json`: any id
 * (Hermes takes ids from API headers and gateways, spaces and colons included) made path-safe as
 * run_agent.py's _safe_session_filename_component does: every character but a word character or `-` becomes
 * `_`, `.` and `_` are stripped from the ends, 96 characters at most, and when that changed the id, the first
 * 12 hex digits of its SHA-256. So an odd id finds its snapshot, and no id reaches outside the folder.
 * (The trailing run is tried from its first character only, the look-behind: ids are hostile input.)
 */
export function hermesFileComponent(id: string): string {
  const raw = id.trim();
  const sanitized = Array.from(raw.replace(/[^\p{L}\p{N}_-]/gu, "_").replace(/^[._]+|(?<![._])[._]+$/g, ""))
    .slice(0, 96).join("") || "session";
  if (raw && sanitized === raw) return sanitized;
  return `${sanitized}_${sha256Hex(raw).slice(0, 12)}`;
}
