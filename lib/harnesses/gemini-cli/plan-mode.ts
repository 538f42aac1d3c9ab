/**
 * Gemini CLI 0.61.0 runs `--approval-mode plan` in default mode, with only a debug-log warning, when the
 * settings say `general.plan.enabled: false`: default lets the agent change files once the user agrees, which
 * a read-only source never allowed. The handoff cannot narrow further (plan is Gemini's narrowest mode), so the
 * report warns, naming the setting; the user's settings are never edited.
 */
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import { isObject } from "../../io/json.ts";
import { geminiSettings, geminiSettingsPath } from "./settings.ts";

/** The report's warning when `mode` is plan and the home's settings turn plan mode off. */
export function planModeNotes(home: string, mode: string | undefined): ReportEntry[] {
  if (mode !== "plan") return [];
  const general = geminiSettings(home)?.general;
  const plan = isObject(general) ? general.plan : undefined;
  if (!isObject(plan) || plan.enabled !== false) return [];
  return [reportEntry(
    "gemini-plan-disabled",
    "warning",
    `the target home's settings turn Gemini CLI's plan mode off (general.plan.enabled: false in ${
      geminiSettingsPath(home)
    }): it would resume in default mode, which asks before each change but may make it; turn plan mode on ` +
      "there before resuming",
  )];
}
