/**
 * The few settings of the user's own Codex that a handed-off thread must agree with: the model provider (a
 * thread recorded under another provider refuses to resume: "Cannot change this thread's model provider"), the
 * model (the TUI resumes with the thread's recorded model), and the approval and sandbox words the `threads` row
 * records. Read from `<CODEX_HOME>/config.toml`, honouring a selected `profile`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfiguredModel } from "../../pipeline/model.ts";

export interface CodexConfig {
  modelProvider: string;
  model?: string;
  approvalPolicy: string;
  sandboxMode: string;
  /** The selected `profile`, when one is. */
  profile?: string;
}

/** What Codex uses when config.toml says nothing. */
export const CODEX_DEFAULTS: CodexConfig = {
  modelProvider: "openai",
  approvalPolicy: "on-request",
  sandboxMode: "read-only",
};

/** The model config.toml names (its selected profile's first), and where, for the shared model choice. */
export function configuredCodexModel(codexHome: string): ConfiguredModel | undefined {
  const { model, profile } = readCodexConfig(codexHome);
  if (!model) return undefined;
  const path = join(codexHome, "config.toml");
  return { model, where: `configured in ${path}${profile ? ` (profile ${profile})` : ""}` };
}

export function readCodexConfig(codexHome: string): CodexConfig {
  const path = join(codexHome, "config.toml");
  const values = existsSync(path) ? tomlStrings(readFileSync(path, "utf8")) : new Map<string, string>();
  const profile = values.get("profile");
  const pick = (key: string) => (profile && values.get(`profiles.${profile}.${key}`)) || values.get(key);
  const model = pick("model");
  return {
    modelProvider: pick("model_provider") ?? CODEX_DEFAULTS.modelProvider,
    approvalPolicy: pick("approval_policy") ?? CODEX_DEFAULTS.approvalPolicy,
    sandboxMode: pick("sandbox_mode") ?? CODEX_DEFAULTS.sandboxMode,
    ...(model ? { model } : {}),
    ...(profile ? { profile } : {}),
  };
}

/**
 * The string values of a TOML document, keyed by their dotted path (`profiles.fast.model`). Only what the
 * settings above need: tables, dotted keys, basic and literal strings. Other values are skipped, multi-line
 * strings are stepped over so their contents are never mistaken for keys.
 */
export function tomlStrings(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let table = "";
  let inMultiline: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (inMultiline) {
      if (line.includes(inMultiline)) inMultiline = undefined;
      continue;
    }
    if (!line || line.startsWith("#")) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = keyPath(header[1]!);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 1) continue;
    const key = keyPath(line.slice(0, eq));
    const value = line.slice(eq + 1).trim();
    const opener = value.startsWith('"""') ? '"""' : value.startsWith("'''") ? "'''" : undefined;
    if (opener) {
      if (!value.slice(3).includes(opener)) inMultiline = opener;
      continue;
    }
    const parsed = stringValue(value);
    if (parsed !== undefined) out.set(table ? `${table}.${key}` : key, parsed);
  }
  return out;
}

/** `a."b.c" . d` -> `a.b.c.d` (quoted parts keep their dots; good enough for the keys we look up). */
function keyPath(text: string): string {
  return text.split(".").map((part) => part.trim().replace(/^["']|["']$/g, "")).join(".");
}

function stringValue(value: string): string | undefined {
  const basic = /^"((?:[^"\\]|\\.)*)"/.exec(value);
  if (basic) {
    try {
      return JSON.parse(`"${basic[1]}"`) as string;
    } catch {
      return basic[1];
    }
  }
  const literal = /^'([^']*)'/.exec(value);
  return literal ? literal[1] : undefined;
}
