/**
 * The few settings of the user's own Codex that a handed-off thread must agree with: the model provider (a
 * thread recorded under another provider refuses to resume: "Cannot change this thread's model provider"), the
 * model (the TUI resumes with the thread's recorded model), and the approval and sandbox words the `threads` row
 * records. Read from `<CODEX_HOME>/config.toml`, honouring a selected `profile` (a `[profiles.x]` table, an inline
 * table or dotted keys: the TOML parser makes them one).
 */
import { join } from "node:path";
import { readTomlFile } from "../../io/config-file.ts";
import { isObject, optStr } from "../../io/json.ts";
import type { ConfiguredModel } from "../models.ts";

export interface CodexConfig {
  modelProvider: string;
  model?: string;
  approvalPolicy: string;
  sandboxMode: string;
  /** The selected `profile`, when one is. */
  profile?: string;
  /** `model_context_window`: the window Codex takes its model to have, instead of its model catalog's. */
  contextWindow?: number;
}

/** What Codex uses when config.toml says nothing. */
export const CODEX_DEFAULTS: CodexConfig = {
  modelProvider: "openai",
  approvalPolicy: "on-request",
  sandboxMode: "read-only",
};

/** The model config.toml names (its selected profile's first), and where, for the shared model choice. */
export function configuredCodexModel(codexHome: string): ConfiguredModel | undefined {
  const { model, profile, contextWindow } = readCodexConfig(codexHome);
  if (!model) return undefined;
  const path = join(codexHome, "config.toml");
  return {
    model,
    where: `configured in ${path}${profile ? ` (profile ${profile})` : ""}`,
    ...(contextWindow ? { window: contextWindow } : {}),
  };
}

export function readCodexConfig(codexHome: string): CodexConfig {
  const document = readTomlFile(join(codexHome, "config.toml")) ?? {};
  const profile = optStr(document.profile);
  const profiles = isObject(document.profiles) ? document.profiles : {};
  const selected = profile && isObject(profiles[profile]) ? profiles[profile] : {};
  // A profile's setting wins over the top-level one, as in Codex; an empty string is no setting.
  const pick = (key: string) => optStr(selected[key]) ?? optStr(document[key]);
  const model = pick("model");
  const window = selected.model_context_window ?? document.model_context_window;
  const contextWindow = typeof window === "number" && Number.isSafeInteger(window) && window > 0
    ? window
    : undefined;
  return {
    modelProvider: pick("model_provider") ?? CODEX_DEFAULTS.modelProvider,
    approvalPolicy: pick("approval_policy") ?? CODEX_DEFAULTS.approvalPolicy,
    sandboxMode: pick("sandbox_mode") ?? CODEX_DEFAULTS.sandboxMode,
    ...(model ? { model } : {}),
    ...(profile ? { profile } : {}),
    ...(contextWindow ? { contextWindow } : {}),
  };
}
