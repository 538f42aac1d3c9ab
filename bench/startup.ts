/**
 * Start-up: `session-bridge --version` and `--help` of the compiled binary (dist/, from `npm run build`) against
 * a compiled Bun hello-world built in the same run, so the ratio holds on any machine. Medians of repeated runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BINARY = fileURLToPath(new URL("../dist/session-bridge", import.meta.url));
const RUNS = 30;
const WARMUP = 3;

function medianMs(argv: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const r = spawnSync(argv[0]!, argv.slice(1));
    if (r.status !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[RUNS >> 1]!;
}

/** Prints one row per command; `dir` is a scratch folder for the hello-world. */
export function benchStartup(dir: string): void {
  if (!existsSync(BINARY)) {
    console.log("start-up: no dist/session-bridge; run `npm run build` first");
    return;
  }
  const source = join(dir, "hello.ts");
  const hello = join(dir, "hello");
  writeFileSync(source, 'console.log("hello");\n');
  const built = spawnSync(process.execPath, ["build", "--compile", "--minify", source, "--outfile", hello]);
  if (built.status !== 0) throw new Error(`building the hello-world failed: ${built.stderr}`);
  const baseline = medianMs([hello]);
  console.log("start-up (median)          ms   x hello-world");
  console.log(`${"hello-world".padEnd(24)} ${baseline.toFixed(1).padStart(5)}   1.0`);
  for (const flag of ["--version", "--help"]) {
    const ms = medianMs([BINARY, flag]);
    console.log(
      `${`session-bridge ${flag}`.padEnd(24)} ${ms.toFixed(1).padStart(5)}   ${(ms / baseline).toFixed(1)}`,
    );
  }
}
