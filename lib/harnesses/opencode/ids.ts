/**
 * OpenCode's ids (its Identifier module, 1.18.33): a prefix (`ses`, `msg`, `prt`), `_`, 12 hex digits of the
 * creation time in milliseconds times 4096 plus a counter (the low 48 bits; session ids bitwise inverted, so the
 * newest session sorts first), then 14 random base62 characters.
 */
import { randomInt } from "node:crypto";
import { InputError } from "../../errors.ts";

export type IdKind = "ses" | "msg" | "prt";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LOW_48 = (1n << 48n) - 1n;

/** A session id as OpenCode's own parser takes it: only these characters, so it is safe in a path and a shell. */
const SESSION_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

/** An id of `kind` made at `now`; `counter` orders ids made in one millisecond, as OpenCode's does. */
export function newOpenCodeId(kind: IdKind, now: Date, counter = 0): string {
  const stamp = BigInt(now.getTime()) * 4096n + BigInt(counter);
  const time = kind === "ses" ? ~stamp & LOW_48 : stamp & LOW_48;
  const random = Array.from({ length: 14 }, () => BASE62[randomInt(BASE62.length)]).join("");
  return `${kind}_${time.toString(16).padStart(12, "0")}${random}`;
}

export function checkOpenCodeId(id: string): string {
  if (!SESSION_ID.test(id)) {
    throw new InputError(
      `${JSON.stringify(id)} is not an OpenCode session id (ses_ and 26 letters or digits)`,
    );
  }
  return id;
}

/**
 * Ids for the rows of one session, each sorting after the one before, in the order they are asked for: OpenCode
 * orders a session's messages by (time_created, id) and a message's parts by id, so ids made from the times the
 * rows are written with, in writing order, keep the conversation's order.
 */
export class RowIds {
  /** The last id's time part: milliseconds times 4096 plus the counter. */
  private last = -1n;

  next(kind: "msg" | "prt", ms: number): string {
    const own = BigInt(Math.floor(ms)) * 4096n + 1n;
    this.last = own > this.last ? own : this.last + 1n;
    return newOpenCodeId(kind, new Date(Number(this.last / 4096n)), Number(this.last % 4096n));
  }
}
