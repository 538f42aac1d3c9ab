/**
 * The model the user's Claude Code runs: `model` in `<config>/settings.json` (what `/model` saves and what
 * Claude Code starts with), else the model its newest transcript last answered with (what it runs by default
 * for this user: the default differs by version and account). An unreadable file is no evidence.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ConfiguredModel } from "../models.ts";
import { isObject } from "../../io/json.ts";
import { regularFileIfPresent } from "../../io/file-kind.ts";
import { transcriptPaths } from "./locate.ts";

/** How much of a transcript's end is read for its last model: a few records' worth. */
const TAIL_BYTES = 256 * 1024;

export function configuredClaudeModel(home: string): ConfiguredModel | undefined {
  const path = join(home, "settings.json");
  const configured = regularFileIfPresent(path) ? settingsModel(path) : undefined;
  if (configured) return { model: configured, where: `configured in ${path}` };
  const newest = transcriptPaths(home)
    .map((p) => ({ p, mtime: statSync(p).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)[0]?.p;
  const used = newest ? lastModel(newest) : undefined;
  return used ? { model: used, where: `the model this Claude Code last ran (${newest})` } : undefined;
}

function settingsModel(path: string): string | undefined {
  try {
    const settings: unknown = JSON.parse(readFileSync(path, "utf8"));
    const model = isObject(settings) && typeof settings.model === "string" ? settings.model.trim() : "";
    return model || undefined;
  } catch {
    return undefined;
  }
}

/** The model of the last assistant record in the file's tail (synthetic records name no real model). */
function lastModel(path: string): string | undefined {
  let text: string;
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    text = buffer.toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  for (const line of text.split("\n").reverse()) {
    if (!line.includes('"assistant"')) continue;
    try {
      const record: unknown = JSON.parse(line);
      const message = isObject(record) && record.type === "assistant" ? record.message : undefined;
      const model = isObject(message) && typeof message.model === "string" ? message.model : "";
      if (model.startsWith("claude-")) return model;
    } catch {
      // A line cut by the tail's start, or a partial last line: not evidence.
    }
  }
  return undefined;
}
