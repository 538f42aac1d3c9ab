/**
 * Pi's own configuration, read-only, as 0.73.1 reads it (settings-manager.js, model-registry.js):
 *
 *   settings.json  `<agent folder>/settings.json`, under the project's `<cwd>/.pi/settings.json` (the project's
 *                  keys win): `defaultProvider` + `defaultModel`, the model a session continues on when its own
 *                  cannot be restored, and `defaultThinkingLevel`
 *   models.json    `<agent folder>/models.json`: custom providers, each with the wire API it speaks (`api`, on
 *                  the provider or on one of its models)
 *
 * A file that is missing or does not parse says nothing here: a handoff never judges the user's files (Pi
 * itself reports them when it starts), and the choice falls to the source's model or Pi's own at resume.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfigPlace, ConfiguredModel } from "../models.ts";
import { isObject, type Json } from "../../io/json.ts";
import { DEFAULT_THINKING_LEVEL, type ThinkingLevel } from "./encode.ts";

/** The wire API of each of Pi's built-in providers that serves a model family (pi-ai's models, 0.73.1). */
const BUILTIN_APIS: Readonly<Record<string, string>> = {
  anthropic: "anthropic-messages",
  openai: "openai-responses",
  google: "google-generative-ai",
};

const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** The `.pi` folder a project keeps its own settings in (`CONFIG_DIR_NAME`). */
const PROJECT_FOLDER = ".pi";

function readObject(path: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

interface Layer {
  settings: Json;
  path: string;
}

/** The settings layers, the one that wins last. */
function settingsLayers(home: string, cwd?: string): Layer[] {
  const paths = [join(home, "settings.json"), ...(cwd ? [join(cwd, PROJECT_FOLDER, "settings.json")] : [])];
  return paths.flatMap((path) => {
    const settings = readObject(path);
    return settings ? [{ settings, path }] : [];
  });
}

/** The model Pi's settings name (`defaultProvider/defaultModel`), and the file that names it. */
export function configuredPiModel(home: string, place: ConfigPlace = {}): ConfiguredModel | undefined {
  let provider: { value: string; path: string } | undefined;
  let model: { value: string; path: string } | undefined;
  for (const { settings, path } of settingsLayers(home, place.cwd)) {
    if (typeof settings.defaultProvider === "string") provider = { value: settings.defaultProvider, path };
    if (typeof settings.defaultModel === "string") model = { value: settings.defaultModel, path };
  }
  if (!provider?.value || !model?.value) return undefined;
  const where = provider.path === model.path ? provider.path : `${provider.path} and ${model.path}`;
  return {
    model: `${provider.value}/${model.value}`,
    where: `configured in ${where} (defaultProvider, defaultModel)`,
  };
}

/** The thinking level Pi starts a session at: its settings' `defaultThinkingLevel`, else its own default. */
export function piThinkingLevel(home: string, cwd?: string): ThinkingLevel {
  let level: ThinkingLevel = DEFAULT_THINKING_LEVEL;
  for (const { settings } of settingsLayers(home, cwd)) {
    const named = THINKING_LEVELS.find((l) => l === settings.defaultThinkingLevel);
    if (named) level = named;
  }
  return level;
}

/**
 * The wire API of each provider the home's models.json configures (the provider's `api`, else its first
 * model's), then Pi's built-in providers'.
 */
export function piApis(home: string | undefined): (provider: string) => string | undefined {
  const providers = home ? customProviders(home) : undefined;
  return (provider) => {
    const configured = providers?.[provider];
    if (isObject(configured)) {
      if (typeof configured.api === "string") return configured.api;
      const models = Array.isArray(configured.models) ? configured.models : [];
      const api = models.find((m) => isObject(m) && typeof m.api === "string");
      if (isObject(api) && typeof api.api === "string") return api.api;
    }
    return BUILTIN_APIS[provider];
  };
}

/** The agent folder's file of custom providers. */
export const piModelsFile = (home: string): string => join(home, "models.json");

function customProviders(home: string): Json | undefined {
  const providers = readObject(piModelsFile(home))?.providers;
  return isObject(providers) ? providers : undefined;
}

/**
 * Whether Pi can find a model on resume (its ModelRegistry.find): one of its built-in providers' (whether a key
 * is set is Pi's business at resume), or a model models.json lists under a custom provider. Pi resumes on
 * another model, silently in print mode, when the session's cannot be found (restoreModelFromSession, 0.73.1).
 */
export function piConfiguresModel(home: string, provider: string, modelId: string): boolean {
  if (Object.hasOwn(BUILTIN_APIS, provider)) return true;
  const configured = customProviders(home)?.[provider];
  const models = isObject(configured) && Array.isArray(configured.models) ? configured.models : [];
  return models.some((m) => isObject(m) && m.id === modelId);
}
