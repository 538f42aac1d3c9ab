/**
 * Gemini CLI runs Google's Gemini models: `gemini-3.1-pro-preview`, `gemini-3.8-flash`, which routers write
 * `google/gemini-3.1-pro-preview` and the API `models/gemini-...`. With nothing named, its router picks a model
 * at resume, so there is no fallback.
 */
import { bareModel, type ModelRules, modelVendor } from "../models.ts";

export const geminiModels: ModelRules = {
  map(model) {
    const vendor = modelVendor(model);
    const bare = bareModel(model);
    return /^gemini-[a-z0-9.-]+$/.test(bare) && (!vendor || vendor === "google" || vendor === "models")
      ? bare
      : undefined;
  },
  // Gemini CLI's router picks among Gemini models of 1,048,576 tokens.
  windowModel: "gemini-2.5-pro",
};
