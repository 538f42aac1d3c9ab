/** One report entry, for the notes targets and rules (posture, the model choice) add about one finding. */
import type { ReportEntry, Severity } from "./report.ts";

export function reportEntry(
  code: string,
  severity: Severity,
  detail: string,
  { count = 1, examples = [] }: { count?: number; examples?: string[] } = {},
): ReportEntry {
  return { code, severity, count, detail, examples: examples.slice(0, 3) };
}
