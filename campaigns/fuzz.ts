/**
 * The fuzz campaign: `npm run fuzz [-- --mutants N --seed S]`. Every fixture under fixtures/ is mutated with a
 * seeded generator and put through every reader, and the writers of what still reads, in-process (see
 * fuzz/exercise.ts for what counts as a crash). Each crash prints its seed, its mutant's index and the command
 * that replays exactly that mutant (and saves it to a file); the last line is `N mutants, N crashes (seed S)`,
 * and the exit status is 1 when there was any crash.
 */
import { randomInt } from "node:crypto";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runCampaign } from "./fuzz/campaign.ts";
import { crashKinds, crashReport, summaryLine } from "./fuzz/report.ts";

const USAGE = `usage: npm run fuzz -- [--mutants N] [--seed S] [--only I,J,...] [--save DIR] [--fixture TEXT]
                         [--budget-ms MS] [--workers N]
  --mutants N     how many mutants (default 2000)
  --seed S        the generator's seed (default: a random one, printed)
  --only I,J      run only these mutants (indexes as a crash report prints them)
  --save DIR      save a copy of each mutant run to DIR
  --fixture TEXT  mutate only fixtures whose path under fixtures/ contains TEXT
  --budget-ms MS  how long one mutant may run before it counts as a hang (default 20000)
  --workers N     worker threads (default: up to 2)`;

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

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
    const mutants = number("mutants", values.mutants, 2000, 1);
    const only = values.only?.split(",").map((i) => number("only", i, 0, 0));
    return run({
      seed,
      indexes: only ?? Array.from({ length: mutants }, (_, i) => i),
      workers: number("workers", values.workers, Math.min(2, availableParallelism()), 1),
      budgetMs: number("budget-ms", values["budget-ms"], 20_000, 1),
      ...(values.save ? { saveDir: values.save } : {}),
      ...(values.fixture ? { fixture: values.fixture } : {}),
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
  workers: number;
  budgetMs: number;
  saveDir?: string;
  fixture?: string;
}

async function run(options: Run): Promise<number> {
  const started = Date.now();
  console.log(`fuzz: ${options.indexes.length} mutants of fixtures/ (seed ${options.seed})`);
  let judged = 0;
  const results = await runCampaign({
    ...options,
    fixturesRoot: FIXTURES,
    onResult(result) {
      if (result.findings.length) console.log(crashReport(result, options));
      if (++judged % 500 === 0) console.log(`fuzz: ${judged} of ${options.indexes.length} mutants`);
    },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const loaded = results.reduce((n, r) => n + r.loaded, 0);
  const converted = results.reduce((n, r) => n + r.converted, 0);
  console.log(`fuzz: ${seconds} s; ${loaded} sessions loaded from mutants, ${converted} conversions written`);
  const kinds = crashKinds(results);
  if (kinds.length) console.log(["fuzz: crashes by kind (findings, kind):", ...kinds].join("\n"));
  console.log(summaryLine(results, options.seed));
  return results.some((r) => r.findings.length) ? 1 : 0;
}

process.exitCode = await main();
