/**
 * A harness is one folder and one line in the built-in list: no other file of lib/ names one. For every
 * registered harness, its name, aliases, title and LazyBridge kind are looked for as whole words in the code of
 * every file under lib/ but the harness folders, the built-in list (lib/harnesses/registry.ts) and the code
 * generated from each harness's schemas (lib/generated/). Code only (identifiers, strings, templates, JSX
 * text: tests/helpers/named-words.ts): a comment may name a harness to explain an example. A word inside a
 * hyphenated one is not the harness's name (`claude-opus-4-5`, `gpt-5-codex` are model ids, as in the price
 * table of lib/observe/prices.ts), nor is one inside a snake_case field name a foreign format spells. The hostile
 * campaigns (campaigns/hostile) keep the same rule: what they do to a store, its harness's test material says.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import type { Harness } from "../lib/harnesses/types.ts";
import { saysWord, wordsInCode } from "./helpers/named-words.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * Files that keep names the package exported before this rule, so that code written against them still runs:
 * the named engine classes (README, "Library"). A harness added since has none (`new HarnessEngine(harness)`).
 */
const KEPT_FOR_COMPATIBILITY = new Set(["lib/engines/builtin.ts"]);

/**
 * Fake model servers named after the API family they speak, whose name a harness shares: Google's Gemini API
 * (`models/*:streamGenerateContent`) is what its fake serves to any harness speaking it, not Gemini CLI.
 */
const NAMED_AFTER_THEIR_API = new Set(["lib/certify-kit/fake-servers/gemini.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const harnessWords = (
  h: Harness,
): string[] => [
  ...new Set([h.name, ...h.aliases, h.title, h.integrations.registryKind ?? ""].filter(Boolean)),
];

const exempt = (file: string): boolean =>
  file === "lib/harnesses/registry.ts" || file.startsWith("lib/generated/") ||
  KEPT_FOR_COMPATIBILITY.has(file) || NAMED_AFTER_THEIR_API.has(file) ||
  builtinRegistry.harnesses.some((h) => file.startsWith(`lib/harnesses/${h.name}/`));

/** `file:line: "word" names <harness> (in: said text)` for every word of a harness said in `files`' code. */
function namings(files: readonly string[]): string[] {
  // A title as an identifier spells it (`HermesAgent`) has no space.
  const words = builtinRegistry.harnesses.flatMap(harnessWords).flatMap((w) => {
    const lower = w.toLowerCase();
    return [lower, lower.replaceAll(" ", "")];
  });
  return files.flatMap((file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    // Parsed only when the text holds a word at all: most files hold none.
    const lower = text.toLowerCase();
    if (!words.some((w) => lower.includes(w))) return [];
    const said = wordsInCode(file, text);
    return builtinRegistry.harnesses.flatMap((h) =>
      harnessWords(h).flatMap((word) =>
        said.filter((s) => saysWord(s.text, word)).map((s) =>
          `${file}:${s.line}: ${JSON.stringify(word)} names ${h.name} (in: ${
            JSON.stringify(s.text.slice(0, 80))
          })`
        )
      )
    );
  });
}

test("no file of lib/ outside the harness folders and the built-in list names a harness in its code", () => {
  const files = sourceFiles("lib").filter((file) => !exempt(file));
  assert.ok(files.length > 100, `only ${files.length} files scanned`);
  assert.deepEqual(namings(files), []);
});

test("no file of the hostile campaigns names a harness in its code: each harness's material says what its store is", () => {
  const files = sourceFiles("campaigns/hostile");
  assert.ok(files.length > 5, `only ${files.length} files scanned`);
  assert.deepEqual(namings(files), []);
});

test("the words a harness is named by are found where code says them, and only there", () => {
  // The scan itself can fail: a name in a string, in a split identifier and in a template is found; one in a
  // comment, a model id or a snake_case field is not.
  const said = (text: string) =>
    wordsInCode("probe.ts", text).filter((s) => saysWord(s.text, "codex") || saysWord(s.text, "claude code"));
  assert.equal(said(`const to = "codex";`).length, 1);
  assert.equal(said(`export class CodexEngine {}`).length, 1);
  assert.equal(said("const t = `${x} for Claude Code`;").length, 1);
  assert.equal(said(`// codex, as an example\nconst claudeCodeHome = 1;`).length, 1);
  assert.equal(said(`const m = "gpt-5-codex"; const c = row.codex_reasoning_items;`).length, 0);
});

test("the files kept for compatibility still name a harness, so the exemption is no blanket", () => {
  for (const file of KEPT_FOR_COMPATIBILITY) assert.notDeepEqual(namings([file]), [], file);
});

test("an API family's fake server is exempt only for the word it shares with a harness", () => {
  for (const file of NAMED_AFTER_THEIR_API) {
    const words = namings([file]).map((n) => /: "([^"]+)" names/.exec(n)?.[1]);
    assert.notDeepEqual(words, [], file);
    assert.deepEqual([...new Set(words)], ["gemini"], file);
  }
});
