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

/**
 * One path component that stands for any id, for files session-bridge keeps about a session (an id a harness
 * accepts may hold spaces or colons: Hermes takes any string). A safe id is itself, so names stay readable;
 * anything else is percent-encoded (no separator survives, and the name is never `.` or `..`), and past 200
 * characters it is a hash, within any file system's name limit.
 */
export function idFileComponent(id: string): string {
  if (SAFE_ID.test(id) && !id.includes("..")) return id;
  const encoded = encodeURIComponent(id).replace(
    /[.!~*'()]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return encoded.length <= 200 ? `%${encoded}` : `%sha256-${sha256Hex(id)}`;
}

export function assertUuid(value: string, what = "session id"): string {
  if (!isUuid(value)) throw new InputError(`invalid ${what} ${JSON.stringify(value)}: expected a UUID`);
  return value.toLowerCase();
}

export function newUuid(): string {
  return crypto.randomUUID();
}

/** `bytes` random bytes in hex, from the Web Crypto global (node:crypto costs start-up: see sha256Hex). */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

/**
 * The SHA-256 of `text`, in hex. node:crypto loads at the first hash, not with this module: the harness
 * descriptors `--help` reads import this module, and loading node:crypto costs start-up about 6 ms
 * (bench/startup.ts); the random ids here come from the Web Crypto global, which costs nothing to reach.
 */
export function sha256Hex(text: string): string {
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("hex");
}

/**
 * A time-ordered UUID (RFC 9562 version 7) minted from `now` (a date, or its milliseconds: a writer minting one
 * per record has the number at hand): 48 bits of Unix milliseconds, then random bits. Harnesses that sort their
 * sessions by id (Codex threads) expect these. Its 36 characters are written into one reused buffer and read out
 * as one string: built from slices and pieces it cost several strings per id, joined again when serialized.
 */
export function newUuidV7(now: Date | number): string {
  const ms = Math.max(0, Math.floor(typeof now === "number" ? now : now.getTime())) % 2 ** 48;
  const high = Math.floor(ms / 2 ** 32);
  const low = ms >>> 0;
  const at = randomBytes(10);
  const id = uuidText;
  hexByte(id, 0, high >>> 8);
  hexByte(id, 2, high & 0xff);
  hexByte(id, 4, low >>> 24);
  hexByte(id, 6, (low >>> 16) & 0xff);
  hexByte(id, 9, (low >>> 8) & 0xff);
  hexByte(id, 11, low & 0xff);
  // Version 7 in the high nibble of byte 6, the RFC's variant in the top bits of byte 8.
  hexByte(id, 14, (pool[at]! & 0x0f) | 0x70);
  hexByte(id, 16, pool[at + 1]!);
  hexByte(id, 19, (pool[at + 2]! & 0x3f) | 0x80);
  hexByte(id, 21, pool[at + 3]!);
  for (let i = 4; i < 10; i++) hexByte(id, 16 + 2 * i, pool[at + i]!);
  return id.toString("latin1", 0, 36);
}

/** The id being minted, its dashes in place (the digits are written over on each mint). */
const uuidText = Buffer.from("00000000-0000-0000-0000-000000000000", "latin1");
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");

/** `byte`'s two hex digits at `at` of `into`. */
function hexByte(into: Buffer, at: number, byte: number): void {
  into[at] = HEX_DIGITS[byte >>> 4]!;
  into[at + 1] = HEX_DIGITS[byte & 0x0f]!;
}

/**
 * Random bytes drawn from a pool filled a few KB at a time: a rendering mints an id per record, and asking the
 * system for 16 bytes each time cost more than the rest of the id.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/** Where in the pool `count` fresh random bytes start (they stay fresh until the next call). */
function randomBytes(count: number): number {
  if (poolAt + count > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  poolAt += count;
  return poolAt - count;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** The largest multiple of 62 within a byte: bytes from it up are dropped, so every letter is as likely. */
const BASE62_BYTES = 248;

/** `count` random letters and digits (base62), drawn from the pool: a writer mints one id per row. */
export function randomBase62(count: number): string {
  let out = "";
  while (out.length < count) {
    const at = randomBytes(count);
    for (let i = 0; i < count && out.length < count; i++) {
      const byte = pool[at + i]!;
      if (byte < BASE62_BYTES) out += BASE62[byte % 62];
    }
  }
  return out;
}
