/**
 * The live matrix's version files name exactly the registered harnesses: the pins (harness-versions.json), the
 * older versions it also certifies (harness-versions-older.json, `matrix.ts --older`), and a harness being
 * brought up is staged (harness-versions-staged.json) only while the registry lacks it. A harness added to the
 * registry without its versions, or versions of one that is not, fails here naming the file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { compareVersions } from "../lib/schemas/compare.ts";

const versionsIn = (file: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../acceptance/${file}`, import.meta.url), "utf8")) as Record<
    string,
    string
  >;

const REGISTERED = builtinRegistry.harnesses.map((h) => h.name).sort();
const VERSION = /^\d+\.\d+\.\d+$/;

for (const file of ["harness-versions.json", "harness-versions-older.json"]) {
  test(`acceptance/${file} names a version of every registered harness, and of no other`, () => {
    const versions = versionsIn(file);
    assert.deepEqual(Object.keys(versions).sort(), REGISTERED, `acceptance/${file}`);
    for (const [name, version] of Object.entries(versions)) {
      assert.match(version, VERSION, `${file}: ${name}`);
    }
  });
}

test("each older version the matrix certifies is older than its pin", () => {
  const pins = versionsIn("harness-versions.json");
  for (const [name, older] of Object.entries(versionsIn("harness-versions-older.json"))) {
    assert.ok(compareVersions(older, pins[name]!) < 0, `${name}: older ${older}, pinned ${pins[name]}`);
  }
});

test("a staged harness is one the registry does not have yet", () => {
  for (const name of Object.keys(versionsIn("harness-versions-staged.json"))) {
    assert.ok(!REGISTERED.includes(name), `${name} is registered: move its pin to harness-versions.json`);
  }
});
