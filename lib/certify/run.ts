/** The matrix: every requested route in turn, its rows reported as they finish. */
import { type RouteOptions, routeRows, runRoute } from "./pair.ts";
import { formatRow } from "./report.ts";
import type { HarnessId, Mode } from "../certify-kit/driver.ts";
import type { CertifyReport, HarnessBinary, PairResult, Route } from "./types.ts";

export interface CertifyOptions extends Omit<RouteOptions, "binaries"> {
  binaries: HarnessBinary[];
  /** Harnesses that could not be run, and why: their routes are skipped. */
  missing: Partial<Record<HarnessId, string>>;
  routes: Route[];
}

export async function certify(options: CertifyOptions): Promise<CertifyReport> {
  const started = performance.now();
  const binaries = Object.fromEntries(options.binaries.map((b) => [b.id, b]));
  const total = options.routes.reduce((n, route) => n + routeRows(route).length, 0);
  const results: PairResult[] = [];
  const record = (row: PairResult) => {
    results.push(row);
    options.progress?.(
      `[${String(results.length).padStart(String(total).length)}/${total}] ${formatRow(row)}`,
    );
  };
  for (const route of options.routes) {
    const absent = [...new Set(route.hops)].filter((h) => !binaries[h]);
    if (absent.length) {
      skipped(route, options.mode, absent.map((h) => options.missing[h] ?? `${h} is not available`)).forEach(
        record,
      );
    } else await runRoute(route, { ...options, binaries, onRow: record });
  }
  return {
    ok: results.some((r) => r.outcome === "pass") && !results.some((r) => r.outcome === "fail"),
    mode: options.mode,
    harnesses: options.binaries,
    results,
    seconds: (performance.now() - started) / 1000,
  };
}

function skipped(route: Route, mode: Mode, reasons: string[]): PairResult[] {
  return routeRows(route).map((hops) => ({
    style: route.style,
    hops,
    mode,
    versions: {},
    outcome: "skip",
    reasons,
    notes: [],
    seconds: 0,
  }));
}
