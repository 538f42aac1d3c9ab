/**
 * Rules the suite keeps so it stays fast and means what it says: no test waits on a timer (a test that sleeps
 * is slow on an idle machine and flaky on a busy one: wait for the event itself), and none times anything.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TESTS = join(ROOT, "tests");
const SELF = fileURLToPath(import.meta.url);

/** Timer waits and clock measurements, as code (not inside the fixture text a test quotes). */
const FORBIDDEN = [
  /\bsetTimeout\s*\(/,
  /\bsetInterval\s*\(/,
  /\bBun\.sleep(?:Sync)?\s*\(/,
  /\bAtomics\.wait\s*\(/,
  /["']node:timers\/promises["']/,
  /\bperformance\.now\s*\(/,
  /\bprocess\.hrtime\b/,
];

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testSources(path);
    return entry.name.endsWith(".ts") && path !== SELF ? [path] : [];
  });
}

test("no test waits on a timer or times anything", () => {
  const found = testSources(TESTS).flatMap((file) =>
    readFileSync(file, "utf8").split("\n").flatMap((line, i) =>
      FORBIDDEN.some((re) => re.test(line)) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : []
    )
  );
  assert.deepEqual(found, []);
});
