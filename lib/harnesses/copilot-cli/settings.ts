/**
 * Copilot CLI's user settings, `<home>/settings.json` (the config file beside it is Copilot's own): the model
 * they name (`model`, what `/model` saves), which a resumed run continues on when no `--model` or COPILOT_MODEL
 * says otherwise. A file this reader cannot parse says nothing here (the user's file is never judged by a
 * handoff). Copilot starts its own JSON files with `//` comment lines; those are left out before parsing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfiguredModel } from "../models.ts";
import { isObject } from "../../io/json.ts";
import { copilotModels } from "./models.ts";

export const copilotSettingsPath = (home: string): string => join(home, "settings.json");

export function configuredCopilotModel(home: string): ConfiguredModel | undefined {
  let settings: unknown;
  try {
    settings = JSON.parse(withoutCommentLines(readFileSync(copilotSettingsPath(home), "utf8")));
  } catch {
    return undefined;
  }
  const model = isObject(settings) && typeof settings.model === "string" ? settings.model : undefined;
  const named = model ? copilotModels.map(model) : undefined;
  return named ? { model: named, where: `configured in ${copilotSettingsPath(home)} (model)` } : undefined;
}

/** The text without its whole-line `//` comments (Copilot's files open with some). */
const withoutCommentLines = (text: string): string =>
  text.split("\n").filter((line) => !line.trimStart().startsWith("//")).join("\n");
