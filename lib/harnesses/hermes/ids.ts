/**
 * Hermes session ids. The CLI names a session `YYYYMMDD_HHMMSS_<6 hex>` from the local time it started
 * (cli.py); a handed-off session gets one from its source's start, so it sorts and reads like the original.
 * Hermes accepts any id string on `--resume`, but ids also name snapshot files, so they must be safe as a path
 * component.
 */
import { randomBytes } from "node:crypto";
import type { Session } from "../../ir/schema.ts";
import { assertSafeId } from "../../ids.ts";

const two = (n: number) => String(n).padStart(2, "0");

export function newHermesId(now: Date, session?: Session): string {
  const started = session?.meta.createdAt ? new Date(session.meta.createdAt) : now;
  const at = Number.isFinite(started.getTime()) && started <= now ? started : now;
  const stamp = `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}_` +
    `${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
  return `${stamp}_${randomBytes(3).toString("hex")}`;
}

export function checkHermesId(id: string): string {
  return assertSafeId(id);
}
