/**
 * Claude Code runs Anthropic models: `claude-sonnet-4-6`, which OpenRouter and other routers write
 * `anthropic/claude-sonnet-4.6` and Bedrock `anthropic.claude-sonnet-4-6-v1:0`. With nothing named, a session
 * records Claude Code's current Sonnet.
 */
import { bareModel, type ModelRules, modelVendor } from "../models.ts";

export const claudeModels: ModelRules = {
  map(model) {
    const vendor = modelVendor(model);
    const anthropic = /^(?:anthropic\.)?(claude-[a-z0-9.-]+?)(?:-v\d+(?::\d+)?)?$/.exec(bareModel(model));
    if (!anthropic || (vendor && vendor !== "anthropic")) return undefined;
    return anthropic[1]!.replace(/(\d)\.(\d)/g, "$1-$2");
  },
  fallback: "claude-sonnet-4-6",
};
