/**
 * Copilot CLI runs the models its service lists under its own ids (`gpt-4.1`, `gpt-5.1`, `claude-sonnet-4.5`,
 * `gemini-3-pro-preview`; `/model` and `--model`), Claude's with a dot where Anthropic's API puts a hyphen
 * (`claude-sonnet-4-5-20250929` is Copilot's `claude-sonnet-4.5`), or any id through a provider of the user's own
 * (COPILOT_PROVIDER_MODEL_ID). With nothing named it picks its configured model at resume, so there is no
 * fallback.
 */
import { bareModel, type ModelRules } from "../models.ts";

/** A Claude id as Anthropic's API spells it: family, major, minor, an optional date. */
const ANTHROPIC_CLAUDE = /^(claude-[a-z]+-\d+)-(\d{1,2})(?:-\d{8})?$/;

const FAMILIES = /^(?:gpt-|o\d|claude-|gemini-)[a-z0-9.-]*$/;

export const copilotModels: ModelRules = {
  map(model) {
    const bare = bareModel(model);
    const claude = ANTHROPIC_CLAUDE.exec(bare);
    if (claude) return `${claude[1]}.${claude[2]}`;
    return FAMILIES.test(bare) ? bare : undefined;
  },
  // Copilot's service takes at most 128,000 prompt tokens, whatever the model's own window.
  windowCap: 128_000,
};
