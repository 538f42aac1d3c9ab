/**
 * Wyhash (final version, as in Zig's std.hash.Wyhash, which `Bun.hash` uses) over UTF-8 bytes, seed 0.
 * Claude Code is a Bun binary and names the project folder of a long cwd with this hash, so we need the same
 * digits under every runtime, not only under Bun.
 */
const MASK = (1n << 64n) - 1n;
const SECRET = [0xa0761d6478bd642fn, 0xe7037ed1a0b428dbn, 0x8ebc6af09c88c6e3n, 0x589965cc75374cc3n] as const;

function mum(a: bigint, b: bigint): [bigint, bigint] {
  const x = a * b;
  return [x & MASK, (x >> 64n) & MASK];
}

function mix(a: bigint, b: bigint): bigint {
  const [lo, hi] = mum(a, b);
  return lo ^ hi;
}

function read(bytes: Uint8Array, at: number, size: 4 | 8): bigint {
  let v = 0n;
  for (let i = size - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]!);
  return v;
}

export function wyhash(input: string | Uint8Array, seed = 0n): bigint {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const len = bytes.length;
  const s0 = seed ^ mix(seed ^ SECRET[0], SECRET[1]);
  const state = [s0, s0, s0];
  let a: bigint;
  let b: bigint;
  if (len <= 16) {
    if (len >= 4) {
      const end = len - 4;
      const quarter = (len >> 3) << 2;
      a = (read(bytes, 0, 4) << 32n) | read(bytes, quarter, 4);
      b = (read(bytes, end, 4) << 32n) | read(bytes, end - quarter, 4);
    } else if (len > 0) {
      a = (BigInt(bytes[0]!) << 16n) | (BigInt(bytes[len >> 1]!) << 8n) | BigInt(bytes[len - 1]!);
      b = 0n;
    } else {
      a = 0n;
      b = 0n;
    }
  } else {
    let i = 0;
    if (len >= 48) {
      for (; i + 48 < len; i += 48) {
        for (let k = 0; k < 3; k++) {
          state[k] = mix(
            read(bytes, i + 16 * k, 8) ^ SECRET[k + 1]!,
            read(bytes, i + 16 * k + 8, 8) ^ state[k]!,
          );
        }
      }
      state[0] = state[0]! ^ state[1]! ^ state[2]!;
    }
    for (; i + 16 < len; i += 16) {
      state[0] = mix(read(bytes, i, 8) ^ SECRET[1], read(bytes, i + 8, 8) ^ state[0]!);
    }
    a = read(bytes, len - 16, 8);
    b = read(bytes, len - 8, 8);
  }
  a ^= SECRET[1];
  b ^= state[0]!;
  [a, b] = mum(a, b);
  return mix(a ^ SECRET[0] ^ BigInt(len), b ^ SECRET[1]);
}
