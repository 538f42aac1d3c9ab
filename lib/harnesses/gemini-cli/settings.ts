/**
 * Gemini CLI's user settings (`<store>/settings.json`), read-only: the model they name (`model.name`), which a
 * resumed run continues on, and whether its session cleanup is off (retention.ts). The file may hold comments
 * (Gemini strips them); one this reader cannot parse says nothing here (the user's file is never judged by a
 * handoff), and the choice falls to the source's model or Gemini's own router.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfiguredModel } from "../models.ts";
import { isObject } from "../../io/json.ts";
import { geminiStore } from "./home.ts";
import { geminiModels } from "./models.ts";

export const geminiSettingsPath = (home: string): string => join(geminiStore(home), "settings.json");

/** The settings object, if the file is there and parses as one. */
export function geminiSettings(home: string): Record<string, unknown> | undefined {
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(geminiSettingsPath(home), "utf8"));
  } catch {
    return undefined;
  }
  return isObject(settings) ? settings : undefined;
}

export function configuredGeminiModel(home: string): ConfiguredModel | undefined {
  const settings = geminiSettings(home);
  const model = settings && isObject(settings.model) ? settings.model.name : undefined;
  const named = typeof model === "string" ? geminiModels.map(model) : undefined;
  return named
    ? { model: named, where: `configured in ${geminiSettingsPath(home)} (model.name)` }
    : undefined;
}
