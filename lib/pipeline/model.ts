/**
 * Which model a handed-off session continues on, decided once for every target: the id must be valid for the
 * target's own provider, since each target resumes with the model its session records or its configuration
 * names (a foreign id such as OpenRouter's `anthropic/claude-sonnet-4.6` fails at Anthropic's API).
 *
 *   1. `--model`, as given;
 *   2. else the target's own configuration (Claude Code settings.json `model`, Codex config.toml with its
 *      profile, Hermes config.yaml, OpenCode's opencode.json layers with the project's), read by each
 *      harness's own reader;
 *   3. else the source's model mapped into the target's namespace, when it has a form there (the target's
 *      descriptor's `models.map`);
 *   4. else the target's default (`models.fallback`: Claude Code gets its current Sonnet; Codex and Hermes
 *      choose their own).
 * The report says which and why.
 */
import type { ReportEntry } from "../report/report.ts";
import { reportEntry } from "../report/entry.ts";
import type { ConfiguredModel, ModelRules } from "../harnesses/models.ts";

export type ModelReason = "flag" | "target-config" | "mapped" | "source" | "target-default";

export interface ModelChoice {
  /** Undefined: the target picks its own default at resume. */
  model?: string;
  reason: ModelReason;
  detail: string;
  /** The window the target's configuration gives the chosen model (reason `target-config` only). */
  window?: number;
}

export function chooseModel(
  target: { name: string; models: ModelRules },
  flag: string | undefined,
  configured: ConfiguredModel | undefined,
  sourceModel: string | undefined,
): ModelChoice {
  if (flag) return { model: flag, reason: "flag", detail: `continues on ${flag} (--model)` };
  if (configured) {
    return {
      model: configured.model,
      reason: "target-config",
      ...(configured.window ? { window: configured.window } : {}),
      detail: `continues on ${configured.model}, ${configured.where}${
        sourceModel && sourceModel !== configured.model ? ` (the source used ${sourceModel})` : ""
      }`,
    };
  }
  const mapped = sourceModel ? target.models.map(sourceModel) : undefined;
  if (sourceModel && mapped === sourceModel) {
    return { model: mapped, reason: "source", detail: `continues on the source's model ${mapped}` };
  }
  if (sourceModel && mapped) {
    return {
      model: mapped,
      reason: "mapped",
      detail: `continues on ${mapped}: the source's ${sourceModel} as ${target.name} names it`,
    };
  }
  const why = sourceModel
    ? `the source's ${sourceModel} is not a ${target.name} model and none is configured`
    : "no model is recorded or configured";
  const fallback = target.models.fallback;
  if (fallback) {
    return { model: fallback, reason: "target-default", detail: `continues on ${fallback}: ${why}` };
  }
  return { reason: "target-default", detail: `continues on ${target.name}'s own default model: ${why}` };
}

/** The report line for a choice. */
export function modelEntry(choice: ModelChoice): ReportEntry {
  return reportEntry("model", "info", choice.detail);
}
