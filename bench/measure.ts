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
}

interface BunSpawnResult {
  exitCode: number | null;
  stdout: Uint8Array;
  stderr: Uint8Array;
  resourceUsage: { maxRSS: number; cpuTime: { total: bigint } };
}
declare const Bun:
  | {
    spawnSync(
      argv: string[],
      options: { cwd?: string; env?: Record<string, string | undefined>; stdout: "pipe"; stderr: "pipe" },
    ): BunSpawnResult;
  }
  | undefined;

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

export function measure(argv: string[], options: RunOptions = {}): Measured {
  if (typeof Bun === "undefined") {
    throw new Error("the bench measures peak memory through Bun: run it with bun");
  }
  const started = performance.now();
  const r = Bun.spawnSync(argv, { ...options, stdout: "pipe", stderr: "pipe" });
  const seconds = (performance.now() - started) / 1000;
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  if (r.exitCode !== 0) {
    throw new Error(`${argv.join(" ")} exited ${r.exitCode}:\n${decode(r.stderr).slice(-2000)}`);
  }
  return {
    seconds,
    cpuSeconds: Number(r.resourceUsage.cpuTime.total) / 1e6,
    peakRssBytes: r.resourceUsage.maxRSS,
    stdout: decode(r.stdout),
  };
}

/** The run with the median CPU time of `runs` runs (one run: that run). */
export function medianOf(runs: number, once: () => Measured): Measured {
  const all = Array.from({ length: Math.max(1, runs) }, once).sort((a, b) => a.cpuSeconds - b.cpuSeconds);
  return all[Math.floor((all.length - 1) / 2)]!;
}
