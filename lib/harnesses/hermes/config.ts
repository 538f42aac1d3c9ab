/**
 * The model a Hermes home routes to, from its `config.yaml`: `model` is either a plain string or a mapping
 * whose `default` (or `model`) names the model and `provider` the route (hermes_cli/profiles.py
 * `_read_config_model`). Hermes resumes with this model whatever a session row records, so it is the one a
 * handed-off session should record. Only the top-level `model` entry is read: a block mapping, a flow mapping
 * or a scalar, which is what `hermes setup` and hand-edited configs use.
 */
import { existsSync, readFileSync } from "node:fs";

export interface ConfiguredModel {
  model?: string;
  provider?: string;
}

export function configuredModel(path: string): ConfiguredModel {
  if (!existsSync(path)) return {};
  const lines = readFileSync(path, "utf8").split(/\r?\n/);
  const at = lines.findIndex((l) => /^model\s*:/.test(l));
  if (at === -1) return {};
  const inline = stripComment(lines[at]!.replace(/^model\s*:/, "")).trim();
  const entries = inline ? inlineEntries(inline) : blockEntries(lines.slice(at + 1));
  if (typeof entries === "string") return entries ? { model: entries } : {};
  const model = entries.get("default") || entries.get("model");
  const provider = entries.get("provider");
  return { ...(model ? { model } : {}), ...(provider ? { provider } : {}) };
}

/** `model: name` or `model: {default: name, provider: p}`. */
function inlineEntries(text: string): string | Map<string, string> {
  if (!text.startsWith("{")) return scalar(text);
  const pairs = text.replace(/^\{|\}$/g, "").split(",");
  return new Map(pairs.map((p) => splitPair(p)).filter((p): p is [string, string] => !!p));
}

/** The indented `key: value` lines under `model:`, up to the next top-level key. */
function blockEntries(lines: string[]): Map<string, string> {
  const entries = new Map<string, string>();
  let indent: number | undefined;
  for (const line of lines) {
    if (!line.trim() || line.trim().startsWith("#")) continue;
    const depth = line.length - line.trimStart().length;
    if (depth === 0) break;
    indent ??= depth;
    if (depth !== indent) continue;
    const pair = splitPair(stripComment(line));
    if (pair) entries.set(pair[0], pair[1]);
  }
  return entries;
}

function splitPair(text: string): [string, string] | undefined {
  const m = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(text);
  return m ? [m[1]!, scalar(m[2]!.trim())] : undefined;
}

/** A YAML scalar: double-quoted (JSON escapes), single-quoted ('' for '), or plain. */
function scalar(text: string): string {
  if (text.startsWith('"')) {
    try {
      return String(JSON.parse(text));
    } catch {
      return text.slice(1, -1);
    }
  }
  if (text.startsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  return text === "null" || text === "~" ? "" : text;
}

/** Drops a ` # comment` outside quotes. */
function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i);
  }
  return text;
}
