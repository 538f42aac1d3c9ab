/**
 * The ledger's hash of what a handoff wrote is read through one reused buffer (lib/store/ledger.ts): it must be
 * the file's SHA-256 however its size falls against that buffer, or undo would take a resumed session for an
 * untouched one (or refuse an untouched one).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256File } from "../lib/store/ledger.ts";

test("the ledger hashes a written file as SHA-256 of all its bytes, across many reads and none", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sb-ledger-hash-"));
  try {
    const MB = 1024 * 1024;
    for (const size of [0, 1, MB - 1, MB, MB + 1, 3 * MB + 12_345]) {
      const bytes = randomBytes(size);
      const path = join(dir, `written-${size}`);
      writeFileSync(path, bytes);
      assert.equal(await sha256File(path), createHash("sha256").update(bytes).digest("hex"), `${size} bytes`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
