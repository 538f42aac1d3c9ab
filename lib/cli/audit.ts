/** The CLI's side of the audit trail: record what a command changed, warning on stderr if it cannot. */
import { type AuditAction, recordAudit } from "../pipeline/audit.ts";
import { err } from "./output.ts";

export function audit(
  bridgeHome: string,
  action: AuditAction,
  details: Record<string, unknown>,
  runId?: string,
) {
  recordAudit(bridgeHome, action, details, err, runId ?? null);
}
