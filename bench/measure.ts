/**
 * One measured run of a program: wall time, CPU time and peak RSS of that process alone. Peak RSS comes from
 * the kernel's accounting of the finished child (getrusage), which only Bun's spawn reports, so the bench runs
 * under Bun (`npm run bench`, `deno task bench` both start it with Bun).
 */
export interface Measured {
  seconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  stdout: string;
  /** Killed at RunOptions.timeoutMs: the figures are where it was stopped. */
  stopped?: boolean;
}

interface BunSpawnResult {
  exitCode: number | null;
  exitedDueToTimeout?: boolean;
  stdout: Uint8Array;
  stderr: Uint8Array;
  resourceUsage: { maxRSS: number; cpuTime: { total: bigint } };
}
declare const Bun:
  | {
    spawnSync(
      argv: string[],
      options: {
        cwd?: string;
        env?: Record<string, string | undefined>;
        timeout?: number;
        killSignal?: string;
        stdout: "pipe";
        stderr: "pipe";
      },
    ): BunSpawnResult;
  }
  | undefined;

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Killed after this long (a run that may never end: a pattern backtracking on hostile input). */
  timeoutMs?: number;
}

export function measure(argv: string[], options: RunOptions = {}): Measured {
  if (typeof Bun === "undefined") {
    throw new Error("the bench measures peak memory through Bun: run it with bun");
  }
  const { timeoutMs, ...spawnOptions } = options;
  const started = performance.now();
  const r = Bun.spawnSync(argv, {
    ...spawnOptions,
    ...(timeoutMs ? { timeout: timeoutMs, killSignal: "SIGKILL" } : {}),
    stdout: "pipe",
    stderr: "pipe",
  });
  const seconds = (performance.now() - started) / 1000;
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const stopped = r.exitedDueToTimeout === true;
  if (r.exitCode !== 0 && !stopped) {
    throw new Error(`${argv.join(" ")} exited ${r.exitCode}:\n${decode(r.stderr).slice(-2000)}`);
  }
  return {
    seconds,
    cpuSeconds: Number(r.resourceUsage.cpuTime.total) / 1e6,
    peakRssBytes: r.resourceUsage.maxRSS,
    stdout: decode(r.stdout),
    ...(stopped ? { stopped } : {}),
  };
}

/** The middle of `items` by `key` (the lower middle of an even count), sorting `items` in place. */
export function lowerMedian<T>(items: T[], key: (item: T) => number): T {
  return items.sort((a, b) => key(a) - key(b))[Math.floor((items.length - 1) / 2)]!;
}

const byCpu = (run: Measured) => run.cpuSeconds;
const itself = (value: number) => value;

/** The run with the median CPU time of `runs` runs (one run: that run). */
export function medianOf(runs: number, once: () => Measured): Measured {
  return lowerMedian(Array.from({ length: Math.max(1, runs) }, once), byCpu);
}

/** Two programs measured side by side: each one's median run (as medianOf) and the median of their ratios. */
export interface Paired {
  a: Measured;
  b: Measured;
  /** The median of the runs' a/b ratios, each taken within its pair. */
  wall: number;
  cpu: number;
}

/**
 * `a` and `b` run in turn, a b a b ..., `runs` pairs, each ratio taken within its pair (as farm-bench pairs
 * them): the machine's speed drifts during a bench (a neighbour's load, the page cache, the host), and it moves
 * both runs of a pair alike, where medians taken apart set one minute's a against another minute's b. `b` may
 * read what the `a` before it wrote.
 */
export function pairedRuns(runs: number, a: () => Measured, b: () => Measured): Paired {
  const as: Measured[] = [];
  const bs: Measured[] = [];
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < Math.max(1, runs); i++) {
    const runA = a();
    const runB = b();
    as.push(runA);
    bs.push(runB);
    wall.push(runA.seconds / runB.seconds);
    cpu.push(runA.cpuSeconds / runB.cpuSeconds);
  }
  return {
    a: lowerMedian(as, byCpu),
    b: lowerMedian(bs, byCpu),
    wall: lowerMedian(wall, itself),
    cpu: lowerMedian(cpu, itself),
  };
}
