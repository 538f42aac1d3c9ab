/**
 * Layers: storage knows no harness format (lib/store describes rows generically, and imports nothing of
 * lib/harnesses, not even a type).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { allSpecifiers } from "./helpers/imports.ts";

const LIB = fileURLToPath(new URL("../lib/", import.meta.url));

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
