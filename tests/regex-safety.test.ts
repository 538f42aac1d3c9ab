/**
 * Sessions, files, harness output and the environment are hostile input, so every regular expression in lib/
 * must run in time linear in what it reads. The ReDoS checker recheck (pinned devDependency; its native binary
 * comes as the platform's optionalDependency, spawned by recheck itself, so the same code runs under Bun and
 * Deno) looks at each: every regex literal and `new RegExp` found by parsing lib/, and the patterns lib/ builds
 * at run time (the redactor's table, the control-tag pattern) as built. Any verdict but `safe` fails, except
 * the allow-list, whose every entry names the bound the code puts on that pattern's input.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { check, type Diagnostics } from "recheck";
import { type FoundRegex, regexesIn } from "./helpers/regex-sources.ts";
import { DEFAULT_PATTERNS } from "../lib/observe/redact.ts";
import { controlTags } from "../lib/pipeline/neutralize.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Per file of lib/ that builds a pattern at run time: the patterns it builds, taken from the module itself. */
const BUILT: Record<string, () => RegExp[]> = {
  "lib/observe/redact.ts": () => DEFAULT_PATTERNS.map(({ pattern }) => pattern),
  "lib/pipeline/neutralize.ts": () => [
    controlTags(builtinRegistry.harnesses.flatMap((harness) => harness.conversation.controlTags)).pattern,
  ],
};

/** `file /source/flags` of a pattern the checker does not call safe, with the bound code puts on its input. */
const ALLOWED: Record<string, string> = {
  "lib/observe/prices.ts /\\[[^\\]]*\\]$/":
    "a model name is at most LONGEST_MODEL_NAME (256) characters: priceOf returns undefined for a longer one first",
  "lib/observe/prices.ts /@.*$/":
    "a model name is at most LONGEST_MODEL_NAME (256) characters: priceOf returns undefined for a longer one first",
};

interface Checked {
  key: string;
  site: string;
  source: string;
  flags: string;
}

function patterns(): { checked: Checked[]; unaccounted: string[] } {
  const found: FoundRegex[] = regexesIn(ROOT, ["lib"]);
  const unaccounted = found.filter((f) => f.source === null && !(f.file in BUILT)).map((f) => f.site);
  const literal = found.flatMap((f) =>
    f.source === null
      ? []
      : [{ key: `${f.file} /${f.source}/${f.flags}`, site: f.site, source: f.source, flags: f.flags }]
  );
  const built = Object.entries(BUILT).flatMap(([file, build]) =>
    build().map((re, i) => ({
      key: `${file} /${re.source}/${re.flags}`,
      site: `${file} (built, #${i + 1})`,
      source: re.source,
      flags: re.flags,
    }))
  );
  return { checked: [...literal, ...built], unaccounted };
}

/**
 * The checker's limits are counts of steps, never times: recheck's default time limits (1 s per attack run, 10 s
 * per pattern) call a linear pattern `polynomial` or `unknown` when the machine is busy. With its fuzzer's seed
 * fixed too, a verdict is the same on every machine and every run.
 */
const STEPS_ONLY = {
  randomSeed: 1,
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
} as const;

/** The checker's verdict on each pattern, two at a time (the checks are CPU-bound, in one agent process). */
async function verdicts(list: readonly Checked[]): Promise<Map<string, Diagnostics>> {
  const out = new Map<string, Diagnostics>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < list.length; i = next++) {
      const { key, source, flags } = list[i]!;
      out.set(key, await check(source, flags, STEPS_ONLY));
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

test("every pattern lib/ builds at run time is checked as built", () => {
  const { checked, unaccounted } = patterns();
  assert.deepEqual(unaccounted, [], "a RegExp built from a non-literal source: add its module to BUILT");
  // The collector sees the code: if it found almost nothing, it is broken, not the code clean.
  assert.ok(checked.length > 150, `only ${checked.length} patterns found in lib/`);
});

test("the ReDoS checker calls every regular expression in lib/ safe, but for the bounded allow-list", async () => {
  const { checked } = patterns();
  const unique = [...new Map(checked.map((c) => [c.key, c])).values()];
  const results = await verdicts(unique);
  const failures = unique.flatMap(({ key, site }) => {
    const d = results.get(key)!;
    if (d.status === "safe" || key in ALLOWED) return [];
    const why = d.status === "vulnerable"
      ? `${d.complexity.type}, attack ${d.attack.pattern.slice(0, 80)}`
      : d.status === "unknown"
      ? `unknown: ${d.error.kind}`
      : "";
    return [`${site} ${key.slice(key.indexOf(" ") + 1)}: ${why}`];
  });
  assert.deepEqual(failures, []);
  const stale = Object.keys(ALLOWED).filter((key) =>
    results.get(key) === undefined || results.get(key)!.status === "safe"
  );
  assert.deepEqual(stale, [], "allow-list entries for patterns that are gone or now safe");
});
