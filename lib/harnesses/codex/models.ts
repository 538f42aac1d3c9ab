/**
 * Codex runs OpenAI models: `gpt-5.5`, `o3`, `codex-mini-latest`, which routers write `openai/gpt-5.5`. With
 * nothing named, Codex picks its own default at resume.
 */
import { bareModel, type ModelRules, modelVendor } from "../models.ts";

export const codexModels: ModelRules = {
  map(model) {
    const vendor = modelVendor(model);
    const bare = bareModel(model);
    const openai = /^(?:gpt-|o\d|codex-|chatgpt-)/.test(bare) && (!vendor || vendor === "openai");
    return openai ? bare : undefined;
  },
  // Codex's own default is its current GPT-5 model (272,000 input tokens in Codex's model catalog).
  windowModel: "gpt-5",
};
