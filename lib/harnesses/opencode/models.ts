/**
 * OpenCode runs any provider: a model is `<providerID>/<modelID>` (its `--model` flag, the `model` of
 * opencode.json; a message row stores the two apart). A bare id of a known family is given its provider's id as
 * OpenCode's built-in providers name them; an id that already names a provider is kept as it is. With nothing
 * named, OpenCode continues on the session's own model, else its configuration's.
 */
import { type ModelRules, providerQualified } from "../models.ts";

export const openCodeModels: ModelRules = { map: providerQualified };

/** The model id OpenCode names a message's model by: `providerID/modelID`, or the model alone. */
export function qualifiedModel(
  providerID: string | undefined,
  modelID: string | undefined,
): string | undefined {
  if (!modelID) return undefined;
  return providerID ? `${providerID}/${modelID}` : modelID;
}
