/**
 * Start-up: `session-bridge --version` and `--help` of the compiled binary against a compiled Bun hello-world
 * built in the same run, so the ratio holds on any machine. The programs take turns, spawn by spawn, so a
 * neighbour's load falls on all of them alike; the median of RUNS spawns each. `npm run bench` reports it
 * among its rows; `bun bench/startup.ts [runs]` prints it alone (after `npm run build`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lowerMedian } from "./measure.ts";

export const BINARY = fileURLToPath(new URL("../dist/session-bridge", import.meta.url));
const RUNS = 60;
const WARMUP = 5;

export interface Startup {
  /** Median milliseconds of the compiled hello-world. */
  hello: number;
  /** Median milliseconds of each probe, by its arguments. */
  probes: Record<string, number>;
}

function spawnMs(argv: string[]): number {
  const started = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1));
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
  return ms;
}

/**
 * Compiles `entry` to `outfile` with the binary's own build command (package.json's `build`), so a program
 * measured in the bench loads its modules as session-bridge does: bundled, minified, as bytecode.
 */
export function buildLikeTheBinary(entry: string, outfile: string): void {
  const packageJson = fileURLToPath(new URL("../package.json", import.meta.url));
  const command =
    (JSON.parse(readFileSync(packageJson, "utf8")) as { scripts: { build: string } }).scripts.build;
  const [bun, ...args] = command.split(" ");
  if (bun !== "bun") throw new Error(`package.json's build is not a bun build: ${command}`);
  const swapped = args.map((a) => (a === "main.ts" ? entry : a === "dist/session-bridge" ? outfile : a));
  if (!swapped.includes(entry) || !swapped.includes(outfile)) throw new Error(`unexpected build: ${command}`);
  const built = spawnSync(process.execPath, swapped, { cwd: fileURLToPath(new URL("..", import.meta.url)) });
  if (built.status !== 0) throw new Error(`building ${entry} failed: ${built.stderr}`);
}

const median = (times: number[]) => lowerMedian(times, (ms) => ms);

/** Builds the hello-world in `dir` (a scratch folder) and times it against each of `probes` of `binary`. */
export function measureStartup(dir: string, probes: string[][], runs = RUNS, binary = BINARY): Startup {
  const source = join(dir, "hello.ts");
  const hello = join(dir, "hello");
  writeFileSync(source, 'console.log("hello");\n');
  const built = spawnSync(process.execPath, ["build", "--compile", "--minify", source, "--outfile", hello]);
  if (built.status !== 0) throw new Error(`building the hello-world failed: ${built.stderr}`);
  const programs = [[hello], ...probes.map((args) => [binary, ...args])];
  const times = programs.map((): number[] => []);
  for (let i = 0; i < WARMUP + runs; i++) {
    programs.forEach((argv, p) => {
      const ms = spawnMs(argv);
      if (i >= WARMUP) times[p]!.push(ms);
    });
  }
  return {
    hello: median(times[0]!),
    probes: Object.fromEntries(probes.map((args, p) => [args.join(" "), median(times[p + 1]!)])),
  };
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), "sb-bench-startup-"));
  try {
    const result = measureStartup(
      dir,
      [["--version"], ["--help"], ["list", "--help"]],
      Number(process.argv[2] ?? RUNS),
    );
    console.log(`hello-world ${result.hello.toFixed(1)} ms`);
    for (const [args, ms] of Object.entries(result.probes)) {
      console.log(`session-bridge ${args}: ${ms.toFixed(1)} ms (${(ms / result.hello).toFixed(2)}x)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
