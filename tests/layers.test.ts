/**
 * Layers: the import graph of lib/ follows the layer table of docs/ARCHITECTURE.md (read from the document, so
 * the table and the rule cannot drift apart), and has no circle, of files or of units. Storage knows no
 * harness format (lib/store describes rows generically, and imports nothing of lib/harnesses, not even a type).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { allSpecifiers } from "./helpers/imports.ts";
import { importGraph, loops, unitGraph } from "./helpers/import-graph.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const LIB = join(ROOT, "lib");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

test("nothing under lib/store imports from lib/harnesses, not even a type", () => {
  const harnesses = join(LIB, "harnesses");
  const crossings = tsFiles(join(LIB, "store")).flatMap((file) =>
    allSpecifiers(readFileSync(file, "utf8"))
      .filter((spec) => spec.startsWith(".") && resolve(dirname(file), spec).startsWith(harnesses))
      .map((spec) => `${relative(LIB, file)} imports ${spec}`)
  );
  assert.deepEqual(crossings, []);
});

/** A layer of the table: its units, and the layers it may import from. */
interface Layer {
  name: string;
  units: string[];
  mayImport: Set<string>;
}

/** The rows of the table under "| layer | units | may import |" (units in backticks, layers by name). */
function layerTable(markdown: string): Layer[] {
  const rows = markdown.split("\n").filter((line) => /^\|\s*[a-z]/.test(line)).slice(1);
  return rows.map((row) => {
    const [name, units, may] = row.split("|").slice(1, 4).map((cell) => cell.trim());
    return {
      name: name!,
      units: [...units!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
      mayImport: new Set(may!.split(",").map((word) => word.trim())),
    };
  });
}

/**
 * What the graph of `root`'s lib/ does against the table: an import a layer may not make, a unit on no layer,
 * a circle of files, a circle of units. Units are the first-level folders and files of lib/, and each of the
 * package's entries (package.json `exports`) on its own.
 */
function layerFindings(root: string): string[] {
  const table = layerTable(readFileSync(join(root, "docs", "ARCHITECTURE.md"), "utf8"));
  const exports = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports as Record<
    string,
    string
  >;
  const entries = new Set(Object.values(exports).map((path) => path.replace(/^\.\/lib\//, "")));
  const unitOf = (file: string) => entries.has(file) ? file : file.split("/")[0]!;
  const layerOf = new Map(table.flatMap((layer) => layer.units.map((unit) => [unit, layer] as const)));
  const files = importGraph(join(root, "lib"));
  const units = unitGraph(files, unitOf);
  const findings = [...units.keys()].filter((unit) => !layerOf.has(unit))
    .map((unit) => `lib/${unit} is on no layer of docs/ARCHITECTURE.md`);
  for (const [from, targets] of files) {
    const layer = layerOf.get(unitOf(from));
    for (const to of targets) {
      const toLayer = layerOf.get(unitOf(to));
      if (!layer || !toLayer || unitOf(to) === unitOf(from) || layer.mayImport.has(toLayer.name)) continue;
      findings.push(`lib/${from} imports lib/${to}: ${layer.name} may not import ${toLayer.name}`);
    }
  }
  for (const loop of loops(files)) findings.push(`files in a circle: ${loop.join(", ")}`);
  for (const loop of loops(units)) findings.push(`units in a circle: ${loop.join(", ")}`);
  return findings;
}

test("lib/ imports only what its layer may (type-only and dynamic imports too), with no circle of files or units", () => {
  assert.deepEqual(layerFindings(ROOT), []);
});
