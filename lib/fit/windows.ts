/**
 * How many tokens the model a session continues on takes in one request, and how much of it a fitted session
 * may fill. The window comes from, in order: `--context TOKENS`; the target's own configuration where it states
 * one for the model it runs (Codex's `model_context_window` in config.toml, Hermes's `model.context_length` in
 * config.yaml); else this table, which follows the providers' published windows (and Codex's model catalog,
 * which gives its GPT-5 models 272,000 input tokens). With no model named, the one the target's descriptor says
 * it runs (`models.fallback`, else `models.windowModel`); a harness that serves models through its own service
 * may cap them lower (`models.windowCap`: Copilot CLI's prompts stop at 128,000 tokens whatever the model).
 */
import { bareModel, type ModelRules } from "../harnesses/models.ts";

/** Model families by bare id, most specific first; the first match gives the window. */
const MODEL_WINDOWS: readonly [RegExp, number][] = [
  [/^claude-/, 200_000],
  [/^gpt-5/, 272_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^(?:gpt-4o|chatgpt-)/, 128_000],
  [/^(?:o\d|codex-)/, 200_000],
  [/^gemini-/, 1_048_576],
];

/** The window assumed for a model this table does not know (or none named: the target picks its own). */
export const DEFAULT_WINDOW = 128_000;

/**
 * The share of the window left free on resume: the target's own system prompt and tool schemas (10,000 to
 * 25,000 tokens in the harnesses measured) are sent besides the session, and the next turns need room before
 * the target's own compaction would have to start. At least MIN_MARGIN tokens.
 */
export const MARGIN_SHARE = 0.25;
export const MIN_MARGIN = 32_000;

export type WindowSource = "flag" | "target-config" | "table" | "default";

export interface ModelWindow {
  tokens: number;
  source: WindowSource;
}

/** The model a session is fitted for in a target: the one named, else the one the target runs of its own. */
export const fittedModel = (rules: ModelRules, model: string | undefined): string | undefined =>
  model ?? rules.fallback ?? rules.windowModel;

/** The window for `model` in a target of `rules`: `--context`, else the configuration's, else the table's. */
export function modelWindow(
  rules: ModelRules,
  model: string | undefined,
  { flag, configured }: { flag?: number; configured?: number },
): ModelWindow {
  if (flag) return { tokens: flag, source: "flag" };
  if (configured) return { tokens: configured, source: "target-config" };
  const named = fittedModel(rules, model);
  const bare = named === undefined ? undefined : bareModel(named);
  const known = bare === undefined ? undefined : MODEL_WINDOWS.find(([family]) => family.test(bare))?.[1];
  const cap = rules.windowCap ?? Infinity;
  return known === undefined
    ? { tokens: Math.min(DEFAULT_WINDOW, cap), source: "default" }
    : { tokens: Math.min(known, cap), source: "table" };
}

/** How many tokens of `window` a fitted session may fill: the window less its margin. */
export function fitBudget(window: number): number {
  return Math.max(0, window - Math.max(MIN_MARGIN, Math.round(window * MARGIN_SHARE)));
}
