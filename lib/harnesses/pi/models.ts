/**
 * Pi runs any provider: its `--model` takes `<provider>/<model id>` (model-resolver.js, 0.73.1), and an
 * assistant message stores the two apart (`provider`, `model`). A bare id of a known family is given its
 * maker's provider as Pi's built-in providers name them (`anthropic`, `openai`, `google`). With nothing named,
 * Pi resumes on the session's last model_change, else its last assistant message's provider and model.
 */
import { type ModelRules, providerQualified } from "../models.ts";

export const piModels: ModelRules = { map: providerQualified };

/** The model id a Pi message or model_change names: `<provider>/<model id>`, or the model alone. */
export function piModelId(provider: string | undefined, model: string | undefined): string | undefined {
  if (!model) return undefined;
  return provider ? `${provider}/${model}` : model;
}
