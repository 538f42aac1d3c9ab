/**
 * The installer accepts an install only when its executable names the pinned version, on whichever stream the
 * harness prints it: Pi 0.73.1 writes `--version` to stderr when stdin is no terminal, as in CI.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reportsVersion } from "../acceptance/install-harness.ts";
import { tempDir } from "./helpers/tmp.ts";

function fakeBinary(script: string): string {
  const bin = join(tempDir("sb-install-"), "harness");
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return bin;
}

test("an executable that prints its version on stderr reports it", () => {
  assert.equal(reportsVersion(fakeBinary("echo 0.73.1 >&2"), ["--version"], "0.73.1"), true);
});

test("an executable that prints its version on stdout reports it", () => {
  assert.equal(reportsVersion(fakeBinary("echo 'pi 0.73.1'"), ["--version"], "0.73.1"), true);
});

test("an executable naming another version, or failing, does not report the pin", () => {
  assert.equal(reportsVersion(fakeBinary("echo 0.73.10 >&2"), ["--version"], "0.73.1"), false);
  assert.equal(reportsVersion(fakeBinary("echo 0.73.1; exit 1"), ["--version"], "0.73.1"), false);
});

test("a version printed at the end of a sentence, its full stop after it, is reported", () => {
  assert.equal(
    reportsVersion(fakeBinary("echo 'GitHub Copilot CLI 1.0.102.'"), ["--version"], "1.0.102"),
    true,
  );
});
