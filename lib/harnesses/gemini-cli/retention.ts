/**
 * Gemini CLI 0.61.0 loses a session resumed in a later minute than the one its file is named by: the resume's
 * start-up first writes a stub file (metadata and context, the same id's first 8 characters), and the session
 * cleanup of the next start-up (`general.sessionRetention`, on by default) deletes a file with no resumable
 * content together with every file sharing those 8 characters: the session itself (docs/harnesses/
 * gemini-cli.md, "A resume in a later minute loses the session"). A handed-off session is named by the minute
 * it started, so every resume of it is in a later minute. The report warns, naming the setting that prevents
 * it, unless the target home's settings already turn the cleanup off; the user's settings are never edited.
 */
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import { isObject } from "../../io/json.ts";
import { geminiSettings, geminiSettingsPath } from "./settings.ts";

/** Whether the home's settings turn Gemini's session cleanup off (`general.sessionRetention.enabled: false`). */
function cleanupOff(home: string): boolean {
  const general = geminiSettings(home)?.general;
  const retention = isObject(general) ? general.sessionRetention : undefined;
  return isObject(retention) && retention.enabled === false;
}

/** The report's warning about the cleanup, when it is on in `home`. */
export function retentionNotes(home: string): ReportEntry[] {
  if (cleanupOff(home)) return [];
  return [reportEntry(
    "gemini-session-cleanup",
    "warning",
    "Gemini CLI 0.61.0 deletes a session resumed in a later minute than it started at its next start-up " +
      "(its session cleanup, general.sessionRetention, on by default), and this session will be: to keep it, " +
      `set "general": {"sessionRetention": {"enabled": false}} in ${geminiSettingsPath(home)}`,
  )];
}
