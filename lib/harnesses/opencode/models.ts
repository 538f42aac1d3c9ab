/**
 * OpenCode runs any provider: a model is `<providerID>/<modelID>` (its `--model` flag, the `model` of
 * opencode.json; a message row stores the two apart). A bare id of a known family is given its provider's id as
 * OpenCode's built-in providers name them; an id that already names a provider is kept as it is. With nothing
 * named, OpenCode continues on the session's own model, else its configuration's.
 */
import type { ModelRules } from "../models.ts";

/** Bare model families and the built-in provider OpenCode reaches them through. */
const FAMILIES: readonly [RegExp, string][] = [
  [/^claude-/, "anthropic"],
  [/^(?:gpt-|o\d|codex-|chatgpt-)/, "openai"],
  [/^gemini-/, "google"],
];

/** A provider id and a model id as OpenCode's config takes them: a word, then anything without a space. */
const QUALIFIED = /^[\w.-]+\/\S+$/;

export const openCodeModels: ModelRules = {
  map(model) {
    if (QUALIFIED.test(model)) return model;
    const provider = FAMILIES.find(([family]) => family.test(model))?.[1];
    return provider ? `${provider}/${model}` : undefined;
  },
};

/** The model id OpenCode names a message's model by: `providerID/modelID`, or the model alone. */
export function qualifiedModel(
  providerID: string | undefined,
  modelID: string | undefined,
): string | undefined {
  if (!modelID) return undefined;
  return providerID ? `${providerID}/${modelID}` : modelID;
}
