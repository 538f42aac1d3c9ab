// Sums test cases and failures over JUnit XML files; prints "passed failed". A missing file counts as one failure.
// Each failed case is named on stderr (file and test), so the end of a CI log, often all that is kept, says which.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    console.error(`failed: no test report at ${path}`);
    failed++;
    continue;
  }
  const xml = readFileSync(path, "utf8");
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const body = match[3] ?? "";
    if (/<(failure|error)\b/.test(body)) {
      failed++;
      console.error(
        `failed test (${path}): ${attribute(match[1], "classname")} > ${attribute(match[1], "name")}`,
      );
    } else if (!/<skipped\b/.test(body)) passed++;
  }
}
console.log(`${passed} ${failed}`);

/** An attribute's value from a tag's attribute text, its XML entities for quotes and ampersands undone. */
function attribute(text, name) {
  const value = new RegExp(`\\b${name}="([^"]*)"`).exec(text)?.[1] ?? "?";
  return value.replaceAll("&quot;", '"').replaceAll("&apos;", "'").replaceAll("&lt;", "<").replaceAll(
    "&gt;",
    ">",
  )
    .replaceAll("&amp;", "&");
}
