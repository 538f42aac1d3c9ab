/**
 * One report entry, for the notes targets and rules add about one finding. Kept apart from report.ts so that
 * modules the report itself imports (posture) can build entries without an import circle.
 */
import type { ReportEntry, Severity } from "./report.ts";

export function reportEntry(
  code: string,
  severity: Severity,
  detail: string,
  { count = 1, examples = [] }: { count?: number; examples?: string[] } = {},
): ReportEntry {
  return { code, severity, count, detail, examples: examples.slice(0, 3) };
}
