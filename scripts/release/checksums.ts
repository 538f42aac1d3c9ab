/** SHA-256 checksums in `sha256sum`'s format ("<hex>  <name>"), which install.sh and `sha256sum -c` read. */
import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { createReadStream, existsSync, writeFileSync } from "node:fs";
import { assetName, CHECKSUMS, TARGETS } from "./targets.ts";

export async function sha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Uint8Array);
  return hash.digest("hex");
}

/** The checksum file's text for `paths`, one line each, named by file name. */
export async function checksumFile(paths: readonly string[]): Promise<string> {
  const lines = [];
  for (const path of paths) lines.push(`${await sha256(path)}  ${basename(path)}`);
  return lines.join("\n") + "\n";
}

/** A checksum file's entries by file name; a line that is not `<64 hex>  <name>` is an error naming it. */
export function parseChecksums(text: string, file: string): Map<string, string> {
  const entries = new Map<string, string>();
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const m = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line);
    if (!m) throw new Error(`${file}:${i + 1}: not a "<sha256>  <name>" line`);
    entries.set(m[2]!, m[1]!);
  });
  return entries;
}

/**
 *   bun scripts/release/checksums.ts DIR
 * writes DIR/SHA256SUMS for every release target's binary, all of which must be there (the release job, after
 * gathering what each platform's runner built).
 */
if (import.meta.main) {
  const dir = process.argv[2] ?? "dist/release";
  const paths = TARGETS.map((t) => join(dir, assetName(t)));
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length) {
    console.error(`checksums: missing ${missing.join(", ")}`);
    process.exit(1);
  }
  writeFileSync(join(dir, CHECKSUMS), await checksumFile(paths));
}
