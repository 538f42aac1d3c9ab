/**
 * The model Gemini CLI's user settings name (`<store>/settings.json`, `model.name`), which a resumed run
 * continues on. The file may hold comments (Gemini strips them); one this reader cannot parse names no model
 * here (the user's file is never judged by a handoff), and the choice falls to the source's model or Gemini's
 * own router.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfiguredModel } from "../models.ts";
import { isObject } from "../../io/json.ts";
import { geminiStore } from "./home.ts";
import { geminiModels } from "./models.ts";

export function configuredGeminiModel(home: string): ConfiguredModel | undefined {
  const path = join(geminiStore(home), "settings.json");
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  const model = isObject(settings) && isObject(settings.model) ? settings.model.name : undefined;
  const named = typeof model === "string" ? geminiModels.map(model) : undefined;
  return named ? { model: named, where: `configured in ${path} (model.name)` } : undefined;
}
