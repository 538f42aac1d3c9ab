/**
 * The model a Hermes home routes to, from its `config.yaml`: `model` is either a plain string or a mapping
 * whose `default` (or `model`) names the model and `provider` the route (hermes_cli/profiles.py
 * `_read_config_model`). Hermes resumes with this model whatever a session row records, so it is the one a
 * handed-off session should record. Only the top-level `model` entry is read, a string or a mapping in any YAML
 * form (block or flow, anchors and aliases, quoted keys).
 */
import { readYamlFile } from "../../io/config-file.ts";
import { isObject, optStr } from "../../io/json.ts";
import type { ConfiguredModel as Configured } from "../models.ts";
import { activeHome, configPath } from "./profiles.ts";

export interface ConfiguredModel {
  model?: string;
  provider?: string;
  /** `context_length`: the window Hermes takes its model to have (it compacts against it). */
  contextLength?: number;
}

export function configuredModel(path: string): ConfiguredModel {
  const entry = readYamlFile(path)?.model;
  if (typeof entry === "string") return entry ? { model: entry } : {};
  if (!isObject(entry)) return {};
  const model = optStr(entry.default) ?? optStr(entry.model);
  const provider = optStr(entry.provider);
  const length = entry.context_length;
  const contextLength = typeof length === "number" && Number.isSafeInteger(length) && length > 0
    ? length
    : undefined;
  return {
    ...(model ? { model } : {}),
    ...(provider ? { provider } : {}),
    ...(contextLength ? { contextLength } : {}),
  };
}

/** The model the config.yaml of the home a plain `hermes` runs in names, and where, for the shared model choice. */
export function configuredHermesModel(home: string): Configured | undefined {
  const where = configPath(activeHome(home).dir);
  const { model, contextLength } = configuredModel(where);
  return model
    ? { model, where: `configured in ${where}`, ...(contextLength ? { window: contextLength } : {}) }
    : undefined;
}
