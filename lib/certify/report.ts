/** The certify report: one progress line per row while it runs, then a table (or one JSON document). */
import type { CertifyReport, PairResult } from "./types.ts";

const RESULT = { pass: "PASS", fail: "FAIL", skip: "SKIP" } as const;

export const pairName = (row: PairResult) => row.hops.join(" → ");

function versionsText(row: PairResult): string {
  return Object.entries(row.versions).map(([h, v]) => `${h} ${v}`).join(", ");
}

/** A progress line: result, style, route, time, and each reason or note on its own indented line. */
export function formatRow(row: PairResult): string {
  return [
    `${RESULT[row.outcome]}  ${row.style}  ${pairName(row)}  (${row.mode}, ${row.seconds.toFixed(1)} s)`,
    ...row.reasons.map((r) => `      ${r}`),
    ...row.notes.map((n) => `      note: ${n}`),
  ].join("\n");
}

/** The report as a text table: style, route, mode, versions, result, time, reason. */
export function reportTable(report: CertifyReport): string[] {
  const header = ["style", "route", "mode", "versions", "result", "time", "reason"];
  const rows = report.results.map((r) => [
    r.style,
    pairName(r),
    r.mode,
    versionsText(r),
    RESULT[r.outcome],
    `${r.seconds.toFixed(1)} s`,
    [...r.reasons, ...r.notes.map((n) => `note: ${n}`)].join("; "),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  // The reason column is last and not padded: it may be long, and it wraps best unpadded.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd();
  const counts = (["pass", "fail", "skip"] as const).map((o) =>
    `${report.results.filter((r) => r.outcome === o).length} ${
      o === "pass" ? "passed" : o === "fail" ? "failed" : "skipped"
    }`
  );
  return [
    line(header),
    line(widths.map((w, i) => "-".repeat(i === widths.length - 1 ? header[i]!.length : w))),
    ...rows.map(line),
    "",
    `${counts.join(", ")} in ${report.seconds.toFixed(0)} s`,
  ];
}
