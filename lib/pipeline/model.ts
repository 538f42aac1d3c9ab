/**
 * Which model a handed-off session continues on, decided once for every target: the id must be valid for the
 * target's own provider, since each target resumes with the model its session records or its configuration
 * names (a foreign id such as OpenRouter's `anthropic/claude-sonnet-4.6` fails at Anthropic's API).
 *
 *   1. `--model`, as given;
 *   2. else the target's own configuration (Claude Code settings.json `model`, Codex config.toml with its
 *      profile, Hermes config.yaml), read by each harness's own reader;
 *   3. else the source's model mapped into the target's namespace, when it has a form there;
 *   4. else the target's default (Codex and Hermes choose their own; Claude Code gets its current Sonnet).
 * The report says which and why.
 */
import type { HarnessName } from "../ir/schema.ts";
import type { ReportEntry } from "../report/report.ts";
import { reportEntry } from "../report/entry.ts";

export type ModelReason = "flag" | "target-config" | "mapped" | "source" | "target-default";

export interface ConfiguredModel {
  model: string;
  /** Why it is this harness's model, for the report: `configured in <file> (profile p)`, ... */
  where: string;
}

export interface ModelChoice {
  /** Undefined: the target picks its own default at resume. */
  model?: string;
  reason: ModelReason;
  detail: string;
}

/** The model Claude Code records when nothing else names one: its current Sonnet. */
export const CLAUDE_DEFAULT_MODEL = "claude-sonnet-4-6";

export function chooseModel(
  target: HarnessName,
  flag: string | undefined,
  configured: ConfiguredModel | undefined,
  sourceModel: string | undefined,
): ModelChoice {
  if (flag) return { model: flag, reason: "flag", detail: `continues on ${flag} (--model)` };
  if (configured) {
    return {
      model: configured.model,
      reason: "target-config",
      detail: `continues on ${configured.model}, ${configured.where}${
        sourceModel && sourceModel !== configured.model ? ` (the source used ${sourceModel})` : ""
      }`,
    };
  }
  const mapped = sourceModel ? mapModel(target, sourceModel) : undefined;
  if (sourceModel && mapped === sourceModel) {
    return { model: mapped, reason: "source", detail: `continues on the source's model ${mapped}` };
  }
  if (sourceModel && mapped) {
    return {
      model: mapped,
      reason: "mapped",
      detail: `continues on ${mapped}: the source's ${sourceModel} as ${target} names it`,
    };
  }
  const why = sourceModel
    ? `the source's ${sourceModel} is not a ${target} model and none is configured`
    : "no model is recorded or configured";
  if (target === "claude-code") {
    return {
      model: CLAUDE_DEFAULT_MODEL,
      reason: "target-default",
      detail: `continues on ${CLAUDE_DEFAULT_MODEL}: ${why}`,
    };
  }
  return { reason: "target-default", detail: `continues on ${target}'s own default model: ${why}` };
}

/** The report line for a choice. */
export function modelEntry(choice: ModelChoice): ReportEntry {
  return reportEntry("model", "info", choice.detail);
}

/**
 * A model id in the target's namespace, or undefined when it has none there.
 * - Anthropic models: `claude-sonnet-4-6`; OpenRouter and other routers write `anthropic/claude-sonnet-4.6`,
 *   Bedrock `anthropic.claude-sonnet-4-6-v1:0`.
 * - OpenAI models: `gpt-5.5`, `o3`, `codex-mini-latest`; routers write `openai/gpt-5.5`.
 * Hermes routes through any provider, so it keeps the id as recorded (a router's id included).
 */
export function mapModel(target: HarnessName, model: string): string | undefined {
  if (target === "hermes") return model;
  const bare = model.replace(/^(?:[\w.-]+\/)*/, "");
  const vendor = /^([\w-]+)\//.exec(model)?.[1]?.toLowerCase();
  if (target === "claude-code") {
    const anthropic = /^(?:anthropic\.)?(claude-[a-z0-9.-]+?)(?:-v\d+(?::\d+)?)?$/.exec(bare);
    if (!anthropic || (vendor && vendor !== "anthropic")) return undefined;
    return anthropic[1]!.replace(/(\d)\.(\d)/g, "$1-$2");
  }
  const openai = /^(?:gpt-|o\d|codex-|chatgpt-)/.test(bare) && (!vendor || vendor === "openai");
  return openai ? bare : undefined;
}
