/**
 * The fuzz campaign: `npm run fuzz [-- --mutants N --seed S]`. Every fixture under fixtures/ is mutated with a
 * seeded generator and put through every reader, and the writers of what still reads, in-process (see
 * fuzz/exercise.ts for what counts as a crash). Then the long runs: megabytes of one character class, or a
 * ReDoS checker's attack string, in a text field of a fixture's session, through every read command of the CLI,
 * each timed against ordinary text of the same size (fuzz/long-run-campaign.ts). Each crash, and each case a
 * command was slow on, prints its seed, its index and the command that replays exactly it; the last two lines
 * are `N mutants, N crashes (seed S)` and `N long runs (N timed), N slow or crashed (seed S)`, and the exit
 * status is 1 when there was any.
 */
import { randomInt } from "node:crypto";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { builtinCoverage } from "../tests/helpers/harness-material.ts";
import { runCampaign } from "./fuzz/campaign.ts";
import { MIB, runLongRuns } from "./fuzz/long-run-campaign.ts";
import {
  crashKinds,
  crashReport,
  longRunReport,
  longRunSummaryLine,
  longRunTable,
  summaryLine,
} from "./fuzz/report.ts";

/** Three harnesses times seven kinds of text field: each once. */
const LONG_RUNS = 21;
const LONG_RUN_MIB = 2;
const USAGE = `usage: npm run fuzz -- [--mutants N] [--seed S] [--only I,J,...] [--save DIR] [--fixture TEXT]
                         [--budget-ms MS] [--workers N] [--long-runs N] [--long-run-mib N]
                         [--only-long I,J,...] [--long-run-timeout-ms MS] [--harness-module PATH]...
  --mutants N     how many mutants (default 2000)
  --seed S        the generator's seed (default: a random one, printed)
  --only I,J      run only these mutants (indexes as a crash report prints them), and no long run
  --save DIR      save a copy of each mutant run to DIR
  --fixture TEXT  mutate only fixtures whose name (<harness>/<path in its fixtures>) contains TEXT
  --budget-ms MS  how long one mutant may run before it counts as a hang (default 20000)
  --workers N     worker threads, and long-run commands at once (default: up to 2)
  --long-runs N   how many long-run cases (default ${LONG_RUNS}: every text field of every harness once)
  --long-run-mib N  each case's run is 1 to N MiB (default ${LONG_RUN_MIB}; 16 for the full campaign)
  --only-long I,J run only these long-run cases (indexes as a report prints them), and no mutant
  --long-run-timeout-ms MS  no read command runs longer than this (default 60000)
  --harness-module PATH  one more harness, with its fixtures, for the mutants (a module exporting
                  \`harness\` and \`material\`, tests/helpers/harness-material.ts); the long runs run
                  the CLI as users do, with the built-in harnesses`;

function main(): Promise<number> | number {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        mutants: { type: "string" },
        seed: { type: "string" },
        only: { type: "string" },
        save: { type: "string" },
        fixture: { type: "string" },
        "budget-ms": { type: "string" },
        workers: { type: "string" },
        "long-runs": { type: "string" },
        "long-run-mib": { type: "string" },
        "only-long": { type: "string" },
        "long-run-timeout-ms": { type: "string" },
        "harness-module": { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`fuzz: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const number = (name: string, text: string | undefined, fallback: number, min: number): number => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < min) {
      throw new UsageError(`--${name} wants an integer of at least ${min}`);
    }
    return n;
  };
  try {
    const seed = number("seed", values.seed, randomInt(0, 2 ** 31), 0);
    const mutants = number("mutants", values.mutants, 2000, 0);
    const only = values.only?.split(",").map((i) => number("only", i, 0, 0));
    const onlyLong = values["only-long"]?.split(",").map((i) => number("only-long", i, 0, 0));
    const longRuns = number("long-runs", values["long-runs"], LONG_RUNS, 0);
    // A replay of some mutants runs no long run, and the other way round.
    const chosen = only || onlyLong;
    return run({
      seed,
      indexes: chosen ? only ?? [] : Array.from({ length: mutants }, (_, i) => i),
      longRuns: chosen ? onlyLong ?? [] : Array.from({ length: longRuns }, (_, i) => i),
      longRunMib: number("long-run-mib", values["long-run-mib"], LONG_RUN_MIB, 1),
      longRunTimeoutMs: number("long-run-timeout-ms", values["long-run-timeout-ms"], 60_000, 1),
      workers: number("workers", values.workers, Math.min(2, availableParallelism()), 1),
      budgetMs: number("budget-ms", values["budget-ms"], 20_000, 1),
      ...(values.save ? { saveDir: values.save } : {}),
      ...(values.fixture ? { fixture: values.fixture } : {}),
      ...(values["harness-module"] ? { harnessModules: values["harness-module"] } : {}),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`fuzz: ${error.message}\n${USAGE}`);
    return 2;
  }
}

class UsageError extends Error {}

interface Run {
  seed: number;
  indexes: number[];
  /** The long-run cases' indexes. */
  longRuns: number[];
  longRunMib: number;
  longRunTimeoutMs: number;
  workers: number;
  budgetMs: number;
  saveDir?: string;
  fixture?: string;
  harnessModules?: string[];
}

async function run(options: Run): Promise<number> {
  const started = Date.now();
  const { longRuns, longRunMib, longRunTimeoutMs, ...mutantOptions } = options;
  let results: Awaited<ReturnType<typeof runCampaign>> = [];
  if (options.indexes.length) {
    console.log(`fuzz: ${options.indexes.length} mutants of fixtures/ (seed ${options.seed})`);
    let judged = 0;
    results = await runCampaign({
      ...mutantOptions,
      onResult(result) {
        if (result.findings.length) console.log(crashReport(result, options));
        if (++judged % 500 === 0) console.log(`fuzz: ${judged} of ${options.indexes.length} mutants`);
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const loaded = results.reduce((n, r) => n + r.loaded, 0);
    const converted = results.reduce((n, r) => n + r.converted, 0);
    console.log(
      `fuzz: ${seconds} s; ${loaded} sessions loaded from mutants, ${converted} conversions written`,
    );
    const kinds = crashKinds(results);
    if (kinds.length) console.log(["fuzz: crashes by kind (findings, kind):", ...kinds].join("\n"));
  }
  let long: Awaited<ReturnType<typeof runLongRuns>> = [];
  if (longRuns.length) {
    const longStarted = Date.now();
    console.log(`fuzz: ${longRuns.length} long runs of 1 to ${longRunMib} MiB through every read command`);
    long = await runLongRuns({
      seed: options.seed,
      indexes: longRuns,
      workers: options.workers,
      covered: await builtinCoverage(),
      ...(options.fixture ? { fixture: options.fixture } : {}),
      bytes: [MIB, longRunMib * MIB],
      timeoutMs: longRunTimeoutMs,
      onResult(result) {
        if (result.findings.length) console.log(longRunReport(result, { ...options, maxMib: longRunMib }));
      },
    });
    const seconds = ((Date.now() - longStarted) / 1000).toFixed(1);
    console.log(`fuzz: ${seconds} s of long runs; by read command:`);
    console.log(longRunTable(long).join("\n"));
  }
  console.log(summaryLine(results, options.seed));
  console.log(longRunSummaryLine(long, options.seed));
  return results.some((r) => r.findings.length) || long.some((r) => r.findings.length) ? 1 : 0;
}

process.exitCode = await main();
