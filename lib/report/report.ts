/**
 * The conversion report: every thing that could not transfer, was transformed, or was synthesized, with a
 * stable code. "Lossless" is claimed only when no entry has severity `loss`. What a conversion's report says is
 * worked out by the pipeline (lib/pipeline/report.ts); harnesses, posture and the handshake add or read entries.
 */
/**
 * `loss`: something of the conversation (or the posture it ran under) does not reach the target; `warning`:
 * it arrives changed; `supplied`: harness context the target sends of its own on resume (its system
 * instructions, its tool schemas), so the source's is not carried and nothing of the conversation is lost;
 * `info`: what was done, for the record.
 */
export type Severity = "loss" | "warning" | "supplied" | "info";

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

/** One part of the report as a person reads it: its entries, of one severity, under a heading. */
export interface ReportSection {
  severity: Severity;
  /** What the entries have in common, as a heading says it (the count follows it). */
  heading: string;
  entries: ReportEntry[];
}

/** The sections in the order they matter: what is lost, then what changes, then what the target supplies. */
const SECTIONS: readonly { severity: Severity; heading: string }[] = [
  { severity: "loss", heading: "What does not carry over" },
  { severity: "warning", heading: "What carries over changed" },
  { severity: "supplied", heading: "What the target supplies itself (not lost)" },
  { severity: "info", heading: "What was done" },
];

/** Whether an entry is about what the agent may do unasked: first in its section, as first in the report. */
const isPosture = (e: ReportEntry) => e.code.startsWith("permission-posture");

/**
 * The report's entries by severity, the posture first within each, then as the conversion found them; empty
 * sections left out. The CLI and the TUI both show these, so their counts agree.
 */
export function reportSections(report: ConversionReport): ReportSection[] {
  return SECTIONS.map(({ severity, heading }) => {
    const entries = report.entries.filter((e) => e.severity === severity);
    return {
      severity,
      heading,
      entries: [...entries.filter(isPosture), ...entries.filter((e) => !isPosture(e))],
    };
  }).filter((s) => s.entries.length);
}

/** The one word a person can trust: "lossless", or "lossy: N lost" (N: the lines of what does not carry over). */
export function reportVerdict(report: ConversionReport): string {
  const lost = report.entries.filter((e) => e.severity === "loss").length;
  return lost ? `lossy: ${lost} lost` : "lossless";
}

/** Human lines for stderr: the verdict, then each section under its heading and count. */
export function formatReport(report: ConversionReport): string[] {
  const head = `report ${report.source.harness} -> ${report.target.harness}: ${reportVerdict(report)}`;
  return [
    head,
    ...reportSections(report).flatMap(({ severity, heading, entries }) => [
      `  ${heading} (${entries.length}):`,
      ...entries.map((e) => `    ${severity.padEnd(8)}  ${e.code} x${e.count}: ${e.detail}`),
    ]),
  ];
}
