// Sums test cases and failures over JUnit XML files; prints "passed failed". A missing file counts as one failure.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    failed++;
    continue;
  }
  const xml = readFileSync(path, "utf8");
  for (const match of xml.matchAll(/<testcase\b[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const body = match[2] ?? "";
    if (/<(failure|error)\b/.test(body)) failed++;
    else if (!/<skipped\b/.test(body)) passed++;
  }
}
console.log(`${passed} ${failed}`);
