/**
 * The binary is built from lib/: a module there that imports from fixtures/ would embed a test fixture in it,
 * and an edit to a fixture would silently change what users run (the demo's samples live in lib/demo/samples/).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LIB = join(ROOT, "lib");
const FIXTURES = join(ROOT, "fixtures") + sep;

/** Static imports and re-exports, side-effect imports, dynamic imports and `new URL(...)` file references. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)["'`]([^"'`]+)["'`]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier in `lib/` that reaches into fixtures/, as `file: specifier`. */
function fixtureImports(): string[] {
  return sourceFiles(LIB).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(SPECIFIER)]
      .map((m) => m[1]!)
      .filter((spec) => spec.includes("fixtures/") || resolve(dirname(file), spec).startsWith(FIXTURES))
      .map((spec) => `${relative(ROOT, file)}: ${spec}`)
  );
}

test("nothing under lib/ imports from fixtures/: the binary carries no test fixture", () => {
  assert.deepEqual(fixtureImports(), []);
});

test("the fixture-import check sees an import, a dynamic import and a file URL into fixtures/", () => {
  const lines = [
    'import captured from "../../fixtures/codex/0.169.0/threads.schema.json" with { type: "json" };',
    'const m = await import("../fixtures/x.ts");',
    'const u = new URL("../../fixtures/hermes/", import.meta.url);',
    'import { ok } from "./demo/samples/sessions.json";',
  ];
  const found = lines.flatMap((line) => [...line.matchAll(SPECIFIER)].map((m) => m[1]));
  assert.deepEqual(found, [
    "../../fixtures/codex/0.169.0/threads.schema.json",
    "../fixtures/x.ts",
    "../../fixtures/hermes/",
    "./demo/samples/sessions.json",
  ]);
});
