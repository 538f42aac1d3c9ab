/** The CLI's side of the audit trail: record what a command changed, warning on stderr if it cannot. */
import { type AuditAction, recordAudit } from "../pipeline/audit.ts";
import type { Context } from "./command.ts";

export function audit(
  { bridgeHome, output }: Pick<Context, "bridgeHome" | "output">,
  action: AuditAction,
  details: Record<string, unknown>,
  runId?: string,
) {
  recordAudit(bridgeHome, action, details, output.err, runId ?? null);
}
