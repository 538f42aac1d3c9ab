/**
 * The conversion report: every thing that could not transfer, was transformed, or was synthesized, with a
 * stable code. "Lossless" is claimed only when no entry has severity `loss`. What a conversion's report says is
 * worked out by the pipeline (lib/pipeline/report.ts); harnesses, posture and the handshake add or read entries.
 */
export type Severity = "info" | "warning" | "loss";

export interface ReportEntry {
  code: string;
  severity: Severity;
  count: number;
  detail: string;
  /** A few places to look: message indexes (`#12`) or call ids. */
  examples: string[];
}

export interface ConversionReport {
  source: { harness: string; id: string };
  target: { harness: string };
  lossless: boolean;
  entries: ReportEntry[];
}

/** The report with what the target store adds (its plan's notes); lossless only while nothing is lost. */
export function withNotes(report: ConversionReport, notes: ReportEntry[] = []): ConversionReport {
  const entries = [...report.entries, ...notes];
  return { ...report, entries, lossless: !entries.some((e) => e.severity === "loss") };
}

/** Human lines for stderr. */
export function formatReport(report: ConversionReport): string[] {
  const head = `report ${report.source.harness} -> ${report.target.harness}: ${
    report.lossless ? "lossless" : "lossy"
  }`;
  return [head, ...report.entries.map((e) => `  ${e.severity.padEnd(7)} ${e.code} x${e.count}: ${e.detail}`)];
}
