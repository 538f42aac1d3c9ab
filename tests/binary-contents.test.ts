/**
 * What the binary is built from may not reach: fixtures/, whose test fixtures would be embedded and whose edits
 * would silently change what users run (the demo's samples live in each harness folder's samples.json); and zod, which only the
 * suite runs (lib/ir/schema.ts says why).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { runtimeSpecifiers } from "./helpers/imports.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LIB = join(ROOT, "lib");
const FIXTURES = join(ROOT, "fixtures") + sep;

/** Static imports and re-exports, side-effect imports, dynamic imports and `new URL(...)` file references. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)["'`]([^"'`]+)["'`]/g;

/** Every file and package the binary's entry loads, following relative imports from `main.ts`. */
function moduleGraph(): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.tsx?$/.test(file)) return;
    for (const spec of runtimeSpecifiers(readFileSync(file, "utf8"))) {
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      else if (!spec.startsWith("node:")) packages.add(spec.startsWith("@") ? spec : spec.split("/")[0]!);
    }
  };
  visit(join(ROOT, "main.ts"));
  return { files, packages };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier in `text` (a file in `dir`) that reaches into fixtures/. */
function fixtureSpecifiers(text: string, dir: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[1]!)
    .filter((spec) => spec.includes("fixtures/") || resolve(dir, spec).startsWith(FIXTURES));
}

function findInLib(find: (text: string, dir: string) => string[]): string[] {
  return sourceFiles(LIB).flatMap((file) =>
    find(readFileSync(file, "utf8"), dirname(file)).map((found) => `${relative(ROOT, file)}: ${found}`)
  );
}

test("nothing under lib/ imports from fixtures/: the binary carries no test fixture", () => {
  assert.deepEqual(findInLib(fixtureSpecifiers), []);
});

test("the binary loads no test fixture and, of the packages, only fastest-levenshtein (suggestions), ink and react (the TUI), OpenTelemetry's (events --otel), jsonc-parser (OpenCode's configuration), string-width, cli-truncate and wrap-ansi (output fitted to the terminal), smol-toml and yaml, gpt-tokenizer's o200k_base (a fit for OpenAI's models): never zod, never Ajv (validators are compiled ahead of time)", () => {
  const { files, packages } = moduleGraph();
  assert.ok(files.has(join(LIB, "cli", "main.ts")));
  // Each harness's embedded samples are reached (the graph follows its descriptor's lazy imports).
  for (const h of builtinRegistry.harnesses) {
    assert.ok(files.has(join(LIB, "harnesses", h.name, "samples.json")), h.name);
  }
  assert.deepEqual([...files].filter((f) => f.startsWith(FIXTURES)), []);
  // zod describes the IR for the suite (lib/ir/schema.ts says why it stays out of the binary).
  assert.deepEqual([...packages].sort(), [
    "@opentelemetry/api",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/semantic-conventions",
    "@opentelemetry/semantic-conventions/incubating",
    "cli-truncate",
    "fastest-levenshtein",
    "gpt-tokenizer",
    "ink",
    "jsonc-parser",
    "react",
    "smol-toml",
    "string-width",
    "wrap-ansi",
    "yaml",
  ]);
});

test("the fixture check sees an import, a dynamic import and a file URL into fixtures/", () => {
  const text = [
    'import captured from "../../fixtures/codex/0.169.0/threads.schema.json" with { type: "json" };',
    'const m = await import("../fixtures/x.ts");',
    'const u = new URL("../../fixtures/hermes/", import.meta.url);',
    'import { ok } from "./demo/samples/sessions.json";',
  ].join("\n");
  assert.deepEqual(fixtureSpecifiers(text, join(LIB, "demo")), [
    "../../fixtures/codex/0.169.0/threads.schema.json",
    "../fixtures/x.ts",
    "../../fixtures/hermes/",
  ]);
});

test("the module graph follows value imports and skips imports erased as types", () => {
  const text = [
    'import type { Session } from "../ir/schema.ts";',
    'import { type Block, type Message } from "../ir/schema.ts";',
    'import {\n  HARNESS_NAMES,\n  type HarnessName,\n} from "../ir/schema.ts";',
    'export { Session } from "../ir/schema.ts";',
    'import { z } from "zod";',
    'import type { ZodType } from "zod";',
    'import samples from "./samples.json" with { type: "json" };',
    'const { list } = await import("./list.ts");',
    'import "./side-effect.ts";',
  ].join("\n");
  assert.deepEqual(runtimeSpecifiers(text), [
    "../ir/schema.ts",
    "../ir/schema.ts",
    "zod",
    "./samples.json",
    "./list.ts",
    "./side-effect.ts",
  ]);
});
