/**
 * What a Hermes to Hermes copy cannot hand the resumed Hermes, though the source held it: the tool catalog a
 * snapshot or transcript recorded (state.db keeps none; Hermes sends the tools of its own configuration), and
 * the stored system prompt when it is not copied or Hermes would not reuse it (it rebuilds one then).
 */
import type { SessionHead } from "../../ir/stream.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import type { ConfiguredModel } from "./config.ts";
import type { HermesSessionsRow } from "./rows.ts";

export function uncarriedByCopy(
  session: SessionHead,
  row: Pick<HermesSessionsRow, "system_prompt" | "cwd">,
  runtime: ConfiguredModel,
): ReportEntry[] {
  if (session.meta.harness !== "hermes") return [];
  const notes = catalogNotCarried(session);
  // Hermes builds its own system prompt on resume: the source's is harness context it supplies itself.
  const supplied = (code: string, count: number, detail: string) =>
    notes.push(reportEntry(code, "supplied", detail, { count }));
  const prompt = session.meta.systemInstructions;
  if (prompt && !row.system_prompt) {
    supplied(
      "system-prompt-not-carried",
      1,
      `the stored system prompt names the working directory ${session.meta.cwd ?? "(unknown)"}, not ` +
        `${row.cwd ?? "(none)"}: it is left out and Hermes builds its own on resume`,
    );
  } else if (row.system_prompt && !reused(row.system_prompt, runtime)) {
    supplied(
      "system-prompt-not-carried",
      1,
      `Hermes reuses a stored system prompt only when its Model/Provider lines match its own run ` +
        `(${runtime.model ?? "?"} / ${
          runtime.provider ?? "?"
        }); this one differs, so Hermes builds its own on resume`,
    );
  }
  return notes;
}

/**
 * The tool catalog a Hermes snapshot or transcript recorded: neither state.db nor an export file has a place for
 * it (Hermes sends the tools of its own configuration), so every Hermes to Hermes copy of it loses it.
 */
export function catalogNotCarried(session: SessionHead): ReportEntry[] {
  if (session.meta.harness !== "hermes" || !session.tools.length) return [];
  return [reportEntry(
    "tool-schemas-not-carried",
    "supplied",
    "the source's tool catalog: Hermes keeps none, so the resumed Hermes offers the tools of its own configuration",
    { count: session.tools.length, examples: session.tools.map((t) => t.name) },
  )];
}

/** `_stored_prompt_matches_runtime` (agent/conversation_loop.py, 0.19.0): the last `Model:`/`Provider:` lines. */
function reused(prompt: string, runtime: ConfiguredModel): boolean {
  const line = (label: string) =>
    prompt.split("\n").filter((l) => l.startsWith(`${label}:`)).at(-1)?.slice(label.length + 1).trim() ?? "";
  const same = (stored: string, current: string | undefined) => !stored || !current || stored === current;
  return same(line("Model"), runtime.model) && same(line("Provider"), runtime.provider);
}
