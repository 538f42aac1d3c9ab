/**
 * A harness's own configuration file, read with a real parser: what the harness accepts (inline tables, dotted
 * keys, anchors, flow maps, quoted keys) must mean the same to us. A file that does not parse is bad input,
 * one line naming the file and line (exit 2); an absent file is `undefined`, the harness's defaults.
 */
import { readFileSync } from "node:fs";
import { parse as parseToml, TomlError } from "smol-toml";
import { parse as parseYaml, YAMLError } from "yaml";
import { parse as parseJsonc, type ParseError, printParseErrorCode } from "jsonc-parser";
import { InputError, messageOf } from "../errors.ts";
import { isObject, type Json } from "./json.ts";
import { regularFileIfPresent } from "./file-kind.ts";

/** A TOML document (Codex `config.toml`) as nested tables. */
export function readTomlFile(path: string): Json | undefined {
  const text = readPresent(path);
  if (text === undefined) return undefined;
  try {
    return parseToml(text);
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    throw notValid(path, "TOML", line, messageOf(error).replace(/^Invalid TOML document: /, ""));
  }
}

/**
 * A YAML document (Hermes `config.yaml`) read the way Hermes's PyYAML `safe_load` reads it: YAML 1.1 scalars
 * and merge keys, a repeated key keeps its last value. `{}` for an empty document; a document that is not a
 * mapping is `undefined`, as Hermes then falls back to its defaults.
 */
export function readYamlFile(path: string): Json | undefined {
  const text = readPresent(path);
  if (text === undefined) return undefined;
  try {
    const value: unknown = parseYaml(text, { version: "1.1", uniqueKeys: false, prettyErrors: false });
    if (value === null || value === undefined) return {};
    return isObject(value) ? value : undefined;
  } catch (error) {
    // An alias bomb is refused while building values, with a plain Error: still this file's fault.
    const line = error instanceof YAMLError ? lineAt(text, error.pos[0]) : undefined;
    throw notValid(path, "YAML", line, messageOf(error));
  }
}

/**
 * A JSON-with-comments document (OpenCode's `opencode.jsonc`, and its `.json`, which it reads the same way):
 * comments and trailing commas allowed. A document that is not an object is `undefined`.
 */
export function readJsoncFile(path: string): Json | undefined {
  const text = readPresent(path);
  return text === undefined ? undefined : parseJsoncText(text, path);
}

/** JSONC text from elsewhere than a file (a variable's value), `source` naming it in an error. */
export function parseJsoncText(text: string, source: string): Json | undefined {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) throw notValid(source, "JSON", lineAt(text, first.offset), printParseErrorCode(first.error));
  return isObject(value) ? value : undefined;
}

/** Only the parser's first line: the rest quotes the document back. */
function notValid(path: string, format: string, line: number | undefined, message: string): InputError {
  const where = line === undefined ? path : `${path}:${line}`;
  return new InputError(`${where}: not valid ${format}: ${message.split("\n")[0]}`);
}

function readPresent(path: string): string | undefined {
  return regularFileIfPresent(path) ? readFileSync(path, "utf8") : undefined;
}

/** The 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}
