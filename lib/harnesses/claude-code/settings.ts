/**
 * The model the user's Claude Code is set to: `model` in `<config>/settings.json` (what `/model` saves and
 * what Claude Code starts with). An unreadable file is no evidence.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Homes } from "../types.ts";
import type { ConfiguredModel } from "../../pipeline/model.ts";
import { isObject } from "../../io/json.ts";

export function configuredClaudeModel(homes: Homes): ConfiguredModel | undefined {
  const path = join(homes.claudeHome, "settings.json");
  if (!existsSync(path)) return undefined;
  try {
    const settings: unknown = JSON.parse(readFileSync(path, "utf8"));
    const model = isObject(settings) && typeof settings.model === "string" ? settings.model.trim() : "";
    return model ? { model, where: path } : undefined;
  } catch {
    return undefined;
  }
}
