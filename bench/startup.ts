/**
 * Start-up: `session-bridge --version`, `--help` and one command's `--help` of the compiled binary (dist/, from
 * `npm run build`) against a compiled Bun hello-world built in the same run, so the ratio holds on any machine.
 * The programs take turns, spawn by spawn, so a neighbour's load falls on all of them alike; median and p90 of
 * RUNS spawns each. Run alone with `bun bench/startup.ts [runs]`; `npm run bench` runs it first.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BINARY = fileURLToPath(new URL("../dist/session-bridge", import.meta.url));
const RUNS = 60;
const WARMUP = 5;

interface Probe {
  label: string;
  argv: string[];
  times: number[];
}

function spawnMs(argv: string[]): number {
  const started = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1));
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
  return ms;
}

/** The value below which `share` of the sorted samples fall (0.5: the median). */
function quantile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

/** Prints one row per program; `dir` is a scratch folder for the hello-world. */
export function benchStartup(dir: string, runs = RUNS): void {
  if (!existsSync(BINARY)) {
    console.log("start-up: no dist/session-bridge; run `npm run build` first");
    return;
  }
  const source = join(dir, "hello.ts");
  const hello = join(dir, "hello");
  writeFileSync(source, 'console.log("hello");\n');
  const built = spawnSync(process.execPath, ["build", "--compile", "--minify", source, "--outfile", hello]);
  if (built.status !== 0) throw new Error(`building the hello-world failed: ${built.stderr}`);
  const probes: Probe[] = [
    { label: "hello-world", argv: [hello], times: [] },
    ...["--version", "--help", "list --help"].map((args) => ({
      label: `session-bridge ${args}`,
      argv: [BINARY, ...args.split(" ")],
      times: [],
    })),
  ];
  for (let i = 0; i < WARMUP + runs; i++) {
    for (const probe of probes) {
      const ms = spawnMs(probe.argv);
      if (i >= WARMUP) probe.times.push(ms);
    }
  }
  const embedded = (statSync(BINARY).size - statSync(hello).size) / 1048576;
  console.log(
    `start-up, ${runs} spawns each; the binary embeds ${embedded.toFixed(1)} MB more than the hello-world`,
  );
  console.log("program                     median     p90   x hello-world (median)");
  const baseline = quantile(probes[0]!.times.sort((a, b) => a - b), 0.5);
  for (const { label, times } of probes) {
    const sorted = times.sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    console.log(
      `${label.padEnd(26)} ${median.toFixed(1).padStart(5)} ms ${
        quantile(sorted, 0.9).toFixed(1).padStart(5)
      } ms   ${(median / baseline).toFixed(2)}`,
    );
  }
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), "sb-bench-startup-"));
  try {
    benchStartup(dir, Number(process.argv[2] ?? RUNS));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
