/**
 * Rules the suite keeps so it stays fast and means what it says: no test waits on a timer (a test that sleeps
 * is slow on an idle machine and flaky on a busy one: wait for the event itself), and none times anything; and
 * `deno task` runs every npm script, so the suite and the tools run the same under either runtime's runner.
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
    return /\.tsx?$/.test(entry.name) && path !== SELF ? [path] : [];
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

const NPM_LIFECYCLE_HOOKS = ["prepack"];

test("every npm script runs as a deno task with the same command (Bun and Deno named by their pinned path)", () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }).scripts;
  // deno.json may hold whole-line // comments.
  const denoJson = readFileSync(join(ROOT, "deno.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
  const tasks = (JSON.parse(denoJson) as { tasks: Record<string, string> }).tasks;
  // A hook npm runs on its own (prepack refuses `npm pack` of the development tree) is no command to run.
  const commands = Object.entries(scripts).filter(([name]) => !NPM_LIFECYCLE_HOOKS.includes(name));
  assert.deepEqual(Object.keys(tasks).sort(), commands.map(([name]) => name).sort());
  const pinned = (command: string) => command.replaceAll("./node_modules/.bin/", "");
  for (const [name, command] of commands) {
    // `npm run x` becomes `deno task x`: the same scripts, run by Deno's task runner.
    assert.equal(pinned(tasks[name]!).replaceAll("deno task ", "npm run "), command, name);
  }
});
