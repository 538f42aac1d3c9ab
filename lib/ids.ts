import { randomUUID } from "node:crypto";
import { InputError } from "./errors.ts";

/**
 * Session ids arrive from the command line and from foreign files, and end up in file names and database rows.
 * They are untrusted: anything that could climb out of a folder or smuggle a separator is refused here, before
 * it can reach a path.
 */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** An id that is safe to use as one path component: no separators, no `..`, no control characters. */
export function assertSafeId(value: string, what = "session id"): string {
  if (!SAFE_ID.test(value) || value.includes("..")) {
    throw new InputError(`invalid ${what} ${JSON.stringify(value)}: use letters, digits, '.', '_' or '-'`);
  }
  return value;
}

export function assertUuid(value: string, what = "session id"): string {
  if (!isUuid(value)) throw new InputError(`invalid ${what} ${JSON.stringify(value)}: expected a UUID`);
  return value.toLowerCase();
}

export function newUuid(): string {
  return randomUUID();
}
