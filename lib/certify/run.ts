/** The matrix: every requested pair in turn, its rows reported as they finish. */
import { pairHops, type PairOptions, runPair } from "./pair.ts";
import { formatRow } from "./report.ts";
import type { HarnessBinary, HarnessId, Mode, PairResult } from "./types.ts";

export interface CertifyOptions extends Omit<PairOptions, "binaries"> {
  binaries: HarnessBinary[];
  /** Harnesses that could not be run, and why: their pairs are skipped. */
  missing: Partial<Record<HarnessId, string>>;
  pairs: [HarnessId, HarnessId][];
  /** Called with one line per finished row (and its reasons), for a terminal to show progress. */
  progress?: (line: string) => void;
}

export interface CertifyReport {
  ok: boolean;
  mode: Mode;
  harnesses: HarnessBinary[];
  results: PairResult[];
  seconds: number;
}

export async function certify(options: CertifyOptions): Promise<CertifyReport> {
  const started = performance.now();
  const binaries = Object.fromEntries(options.binaries.map((b) => [b.id, b]));
  const total = options.pairs.reduce((n, [s, t]) => n + pairHops(s, t, options.hopBack).length, 0);
  const results: PairResult[] = [];
  for (const [source, target] of options.pairs) {
    const absent = [...new Set([source, target])].filter((h) => !binaries[h]);
    const rows = absent.length
      ? skipped(source, target, options, absent.map((h) => options.missing[h] ?? `${h} is not available`))
      : await runPair(source, target, { ...options, binaries });
    for (const row of rows) {
      results.push(row);
      options.progress?.(
        `[${String(results.length).padStart(String(total).length)}/${total}] ${formatRow(row)}`,
      );
    }
  }
  return {
    ok: results.some((r) => r.outcome === "pass") && !results.some((r) => r.outcome === "fail"),
    mode: options.mode,
    harnesses: options.binaries,
    results,
    seconds: (performance.now() - started) / 1000,
  };
}

function skipped(
  source: HarnessId,
  target: HarnessId,
  options: CertifyOptions,
  reasons: string[],
): PairResult[] {
  return pairHops(source, target, options.hopBack).map((hops) => ({
    hops,
    mode: options.mode,
    versions: {},
    outcome: "skip",
    reasons,
    notes: [],
    seconds: 0,
  }));
}
