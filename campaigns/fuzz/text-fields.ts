/**
 * Where a harness keeps a session's texts, found from what its reader makes of them: every text of the loaded
 * session (a user's words, a reply, reasoning, a tool's input and output, the title, the working directory) is
 * looked up among the string values of the session's files (JSON lines, SQLite cells, and JSON nested in
 * either, as Codex keeps a tool call's arguments), so a long run placed there reaches the reader as that text
 * whatever the harness calls the field.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { Session } from "../../lib/mod.ts";
import { filesUnder } from "./catalog.ts";

export const FIELD_KINDS = [
  "user",
  "assistant",
  "reasoning",
  "tool-input",
  "tool-output",
  "title",
  "path",
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export interface TextField {
  kind: FieldKind;
  /** The text as the harness stored it (and the reader read it). */
  value: string;
}

/** Shorter texts ("ok", "ls") are not looked up: they would match an unrelated value first. */
const SHORTEST = 3;

/** The session's texts, by kind, in the order the reader met them. */
export function textFields(session: Session): TextField[] {
  const fields: TextField[] = [];
  const add = (kind: FieldKind, value: unknown) => {
    if (typeof value === "string" && value.length >= SHORTEST) fields.push({ kind, value });
  };
  add("title", session.meta.title);
  add("path", session.meta.cwd);
  for (const message of [...session.messages, ...session.threads.flatMap((t) => t.messages)]) {
    for (const block of message.blocks) {
      switch (block.type) {
        case "text":
          if (message.role === "user" || message.role === "assistant") add(message.role, block.text);
          break;
        case "reasoning":
          add("reasoning", block.text);
          break;
        case "tool_call":
          for (const leaf of stringLeaves(block.input)) add("tool-input", leaf);
          break;
        case "tool_result":
          for (const part of block.content) if (part.type === "text") add("tool-output", part.text);
          break;
      }
    }
  }
  return fields;
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(stringLeaves);
}

/** The files a harness keeps sessions in under `root`: JSON lines and SQLite databases. */
export function sessionFiles(root: string): string[] {
  return filesUnder(root).filter((path) => /\.(?:jsonl|sqlite|db)$/.test(path)).sort();
}

/**
 * Puts `replacement` where `value` is stored: its first occurrence in each file (a Codex rollout and its
 * index row both hold the first prompt; a Claude Code transcript repeats the working directory on every
 * record, and one is what the reader takes). Returns how many files it was placed in.
 */
export function placeText(files: readonly string[], value: string, replacement: string): number {
  return files.filter((file) => placeIn(file, value, replacement, true)).length;
}

/**
 * Whether `value` is stored as it was read somewhere in `files`. A text the reader composes from several stored
 * values (Gemini CLI's thought, `**subject** description`) is not: a long run has nowhere to go in its place.
 */
export function isStored(files: readonly string[], value: string): boolean {
  return files.some((file) => placeIn(file, value, value, false));
}

function placeIn(file: string, value: string, replacement: string, write: boolean): boolean {
  return file.endsWith(".jsonl")
    ? placeInLines(file, value, replacement, write)
    : placeInCells(file, value, replacement, write);
}

function placeInLines(file: string, value: string, replacement: string, write: boolean): boolean {
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const record = parsed(lines[i]!);
    if (typeof record !== "object" || record === null) continue;
    const changed = replaced(record, value, replacement);
    if (changed === undefined) continue;
    lines[i] = JSON.stringify(changed);
    if (write) writeFileSync(file, lines.join("\n"));
    return true;
  }
  return false;
}

function placeInCells(file: string, value: string, replacement: string, write: boolean): boolean {
  const db = new DatabaseSync(file);
  try {
    for (const table of plainTables(db)) {
      for (const row of db.prepare(`SELECT rowid AS fuzz_rowid, * FROM "${table}"`).all()) {
        for (const [column, cell] of Object.entries(row)) {
          if (column === "fuzz_rowid" || typeof cell !== "string") continue;
          const changed = replaced(cell, value, replacement);
          if (changed === undefined) continue;
          if (!write) return true;
          db.prepare(`UPDATE "${table}" SET "${column}" = ? WHERE rowid = ?`).run(
            changed as SQLInputValue,
            row.fuzz_rowid as SQLInputValue,
          );
          return true;
        }
      }
    }
    return false;
  } finally {
    db.close();
  }
}

/** Tables with rowids that are not full-text indexes or their shadows (a trigger keeps those in step). */
function plainTables(db: DatabaseSync): string[] {
  const rows = db.prepare(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  ).all() as { name: string; sql: string }[];
  const virtual = rows.filter((r) => /^CREATE VIRTUAL/i.test(r.sql)).map((r) => r.name);
  return rows.filter((r) =>
    !/^CREATE VIRTUAL/i.test(r.sql) && !/WITHOUT ROWID/i.test(r.sql) &&
    !virtual.some((v) => r.name.startsWith(`${v}_`))
  ).map((r) => r.name);
}

/**
 * `node` with its first string equal to `value` made `replacement` (looking inside strings that hold JSON, which
 * stay strings of JSON), or undefined when it holds none.
 */
function replaced(node: unknown, value: string, replacement: string): unknown {
  if (typeof node === "string") {
    if (node === value) return replacement;
    if (!/^\s*[[{]/.test(node)) return undefined;
    const inner = parsed(node);
    if (typeof inner !== "object" || inner === null) return undefined;
    const changed = replaced(inner, value, replacement);
    return changed === undefined ? undefined : JSON.stringify(changed);
  }
  if (typeof node !== "object" || node === null) return undefined;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(node) ? [...node] : { ...node };
  for (const [key, child] of Object.entries(node)) {
    const changed = replaced(child, value, replacement);
    if (changed === undefined) continue;
    (copy as Record<string, unknown>)[key] = changed;
    return copy;
  }
  return undefined;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
