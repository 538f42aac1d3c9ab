/**
 * A Pi session file's entries as the tree Pi builds of them (session-manager.js, 0.73.1), pure. Every entry names
 * its parent; on load the leaf is the file's last entry, so the live branch is the path from it up to the root.
 * With a compaction on that path, what the model sees is its summary, then the path's entries from the
 * compaction's `firstKeptEntryId` up to it, then those after it (`buildSessionContext`): the entries before the
 * kept ones are compacted history. Entries off the path are abandoned branches (a `/tree` jump, a rewind).
 *
 * Every walk here is linear in the entries: the path is followed once with a visited set (a loop of parent
 * links in a hostile file ends it), and branches are grouped in one pass in file order.
 */
import { isObject, type Json } from "../../io/json.ts";
import type { JsonlLine } from "../../io/jsonl.ts";

/** A line of the file as the tree needs it. */
export type LineRecord = Pick<JsonlLine, "line" | "offset" | "length" | "value">;

/** One entry of the tree: its record, where it stands in the file, and the uid its message takes in the IR. */
export interface PiEntry {
  /** The id other entries name it by (`parentId`, `firstKeptEntryId`). */
  id: string;
  parentId: string | null;
  type: string;
  value: Json;
  line: number;
  offset: number;
  length: number;
  /** Unique in the session: the id, or the id and the line for a second entry taking a taken id. */
  uid: string;
}

/**
 * The entries of a file's lines after its header. Version 1 files (no `version`, no ids) are chained as Pi
 * migrates them: each entry the child of the one before, a compaction's `firstKeptEntryIndex` (an index into
 * the file's entries, the header at 0) made the id of that entry. A line that is no object or names no id
 * has no place in the tree (drift names it).
 */
export function piEntries(lines: readonly LineRecord[], version: number): PiEntry[] {
  const linear = version < 2;
  const out: PiEntry[] = [];
  const taken = new Set<string>();
  for (const [index, line] of lines.entries()) {
    const value = line.value;
    if (!isObject(value)) continue;
    const id = linear ? `v1-${index + 1}` : value.id;
    if (typeof id !== "string") continue;
    const parentId = linear
      ? out.at(-1)?.id ?? null
      : typeof value.parentId === "string"
      ? value.parentId
      : null;
    const uid = taken.has(id) ? `${id}:${line.line}` : id;
    taken.add(id);
    out.push({
      id,
      parentId,
      type: typeof value.type === "string" ? value.type : "",
      value,
      line: line.line,
      offset: line.offset,
      length: line.length,
      uid,
    });
  }
  if (linear) {
    for (const entry of out) {
      const index = entry.value.firstKeptEntryIndex;
      // Index 0 is the header; entry i of the file is out[i - 1] (no line was left out of a version 1 file).
      if (entry.type === "compaction" && typeof index === "number" && index >= 1 && out[index - 1]) {
        entry.value = { ...entry.value, firstKeptEntryId: out[index - 1]!.id };
      }
    }
  }
  return out;
}

export interface LivePath {
  /** From the root to the leaf. */
  path: PiEntry[];
  /** The walk met an entry twice: a loop of parent links, cut where it closed. */
  looped: boolean;
}

/** The path from the last entry (the leaf Pi loads) up to the root, each id found as Pi finds it (the last entry of that id). */
export function livePath(entries: readonly PiEntry[]): LivePath {
  const byId = new Map<string, PiEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  const path: PiEntry[] = [];
  const seen = new Set<PiEntry>();
  let looped = false;
  for (let at = entries.at(-1); at;) {
    if (seen.has(at)) {
      looped = true;
      break;
    }
    seen.add(at);
    path.push(at);
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return { path: path.reverse(), looped };
}

export interface Context {
  /** The entries the model sees, in order: the last compaction first, when the path has one. */
  context: PiEntry[];
  /** The path's entries before the compaction's kept ones: what it summarized (earlier compactions among them). */
  compacted: PiEntry[];
}

/** The live path as the model sees it (`buildSessionContext`): only the last compaction on it counts. */
export function contextOf(path: readonly PiEntry[]): Context {
  let at = -1;
  for (const [i, entry] of path.entries()) if (entry.type === "compaction") at = i;
  if (at < 0) return { context: [...path], compacted: [] };
  const compaction = path[at]!;
  const before = path.slice(0, at);
  const kept = before.findIndex((e) => e.id === compaction.value.firstKeptEntryId);
  // A firstKeptEntryId not on the path keeps nothing before the compaction, as in Pi.
  const cut = kept < 0 ? at : kept;
  return {
    context: [compaction, ...before.slice(cut), ...path.slice(at + 1)],
    compacted: before.slice(0, cut),
  };
}

/**
 * The entries off the live path, one group per place a branch leaves it (in file order within each): an
 * entry joins its parent's group, or starts one when its parent is on the path, missing, or further down the
 * file (Pi appends a child after its parent; a file saying otherwise gets a group per such entry).
 */
export function branches(entries: readonly PiEntry[], onPath: ReadonlySet<PiEntry>): PiEntry[][] {
  const byId = new Map<string, PiEntry>();
  const groupOf = new Map<PiEntry, PiEntry[]>();
  const groups: PiEntry[][] = [];
  for (const entry of entries) {
    const parent = entry.parentId === null ? undefined : byId.get(entry.parentId);
    byId.set(entry.id, entry);
    if (onPath.has(entry)) continue;
    let group = parent && !onPath.has(parent) ? groupOf.get(parent) : undefined;
    if (!group) {
      group = [];
      groups.push(group);
    }
    group.push(entry);
    groupOf.set(entry, group);
  }
  return groups;
}
