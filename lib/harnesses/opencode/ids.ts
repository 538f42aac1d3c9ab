/**
 * OpenCode's ids, as its Identifier module makes them (1.18.33): `<prefix>_` + 12 hex digits of the 48 low bits
 * of `milliseconds * 0x1000 + counter` + 14 base62 random letters. Sessions take the bitwise complement of the
 * time (so a newer session sorts first); messages and parts take it as it is, and OpenCode orders a session's
 * messages by (time_created, id) and a message's parts by id: ids made from the times the rows are written with,
 * in writing order, keep the conversation's order.
 */
import { InputError } from "../../errors.ts";
import { randomBase62 } from "../../ids.ts";

export type IdPrefix = "ses" | "msg" | "prt";

const RANDOM_LETTERS = 14;
const TIME_MASK = (1n << 48n) - 1n;

/** A session id OpenCode would accept and list: its own shape, nothing that could reach a path or a query raw. */
const SESSION_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

/** The id of prefix `prefix` whose time part is `ms * 0x1000 + counter` (OpenCode's counter starts at 1). */
export function openCodeId(prefix: IdPrefix, ms: number, counter = 1): string {
  return idOf(prefix, BigInt(Math.floor(ms)) * 0x1000n + BigInt(counter));
}

function idOf(prefix: IdPrefix, stamp: bigint): string {
  const time = prefix === "ses" ? ~stamp & TIME_MASK : stamp & TIME_MASK;
  return `${prefix}_${time.toString(16).padStart(12, "0")}${randomBase62(RANDOM_LETTERS)}`;
}

/** Ids for the rows of one session, each sorting after the one before, in the order they are asked for. */
export class RowIds {
  private last = -1n;

  next(prefix: "msg" | "prt", ms: number): string {
    const own = BigInt(Math.floor(ms)) * 0x1000n + 1n;
    this.last = own > this.last ? own : this.last + 1n;
    return idOf(prefix, this.last);
  }
}

export const newOpenCodeSessionId = (now: Date): string => openCodeId("ses", now.getTime(), 1);

/** Refuses a session id OpenCode could not have made (exit 2, before any store is read). */
export function checkOpenCodeSessionId(id: string): string {
  if (!SESSION_ID.test(id)) {
    throw new InputError(
      // Worded as every harness refuses an id (tests/refusal-policy.test.ts), saying what OpenCode's look like.
      `invalid session id ${
        JSON.stringify(id)
      }: expected an OpenCode id, ses_ then 12 hex digits and 14 letters ` +
        "or digits",
    );
  }
  return id;
}
