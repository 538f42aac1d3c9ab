/**
 * Every harness's codec (lib/harnesses/<name>/codec.ts) is pure: records or rows in, IR out, and back. Nothing
 * it loads, followed import by import through lib/, may reach the file system, SQLite, a child process, the
 * environment or the clock: the store reads and writes, detects the target, and passes those facts in.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runtimeSpecifiers } from "./helpers/imports.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FORBIDDEN_MODULES = ["node:fs", "node:fs/promises", "node:sqlite", "node:child_process"];
/** Reads of the environment or the clock: values a codec is given, never fetches. */
const FORBIDDEN_CODE: [RegExp, string][] = [
  [/\bprocess\.env\b/, "process.env"],
  [/\bDate\.now\(/, "Date.now()"],
  [/\bnew Date\(\)/, "new Date()"],
];

/** What a module and everything it loads at run time does that a codec may not, each with its import chain. */
function impurities(entry: string): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const visit = (file: string, via: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const chain = [...via, relative(ROOT, file)].join(" -> ");
    const text = readFileSync(file, "utf8");
    for (const [pattern, what] of FORBIDDEN_CODE) {
      if (pattern.test(text)) found.push(`${chain} reads ${what}`);
    }
    for (const spec of runtimeSpecifiers(text)) {
      if (FORBIDDEN_MODULES.includes(spec)) found.push(`${chain} imports ${spec}`);
      else if (spec.startsWith(".") && spec.endsWith(".ts")) visit(resolve(dirname(file), spec), [chain]);
    }
  };
  visit(entry, []);
  return found;
}

for (const harness of builtinRegistry.harnesses) {
  const codec = join(ROOT, "lib", "harnesses", harness.name, "codec.ts");

  test(`${harness.name}: its codec (codec.ts) loads and decodes and encodes`, async () => {
    assert.ok(existsSync(codec), `${relative(ROOT, codec)} is missing`);
    const exports = Object.keys(await import(codec));
    assert.ok(exports.some((name) => name.startsWith("decode")), `no decode* in ${exports.join(", ")}`);
    assert.ok(exports.length > 1, "an encoder too");
  });

  test(`${harness.name}: its codec reaches no file system, database, child process, environment or clock`, () => {
    assert.deepEqual(impurities(codec), []);
  });
}

for (const harness of builtinRegistry.harnesses) {
  test(`${harness.name}: its store (store.ts) lists, loads, renders and plans`, async () => {
    const exports = Object.keys(await import(join(ROOT, "lib", "harnesses", harness.name, "store.ts")));
    for (const verb of ["list", "read", "render", "plan"]) {
      assert.ok(exports.some((name) => name.startsWith(verb)), `no ${verb}* in ${exports.join(", ")}`);
    }
  });
}

test("the purity check finds a file system import through a chain of imports", () => {
  // The store side of the same harness reads files: the check must see it, or it proves nothing.
  const found = impurities(join(ROOT, "lib", "harnesses", "codex", "read.ts"));
  assert.ok(found.some((line) => line.endsWith("imports node:fs")), found.join("\n"));
});
