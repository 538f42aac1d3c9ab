/**
 * A Pi session file's entries as the tree Pi builds of them (session-manager.js, 0.73.1), pure. Every entry names
 * its parent; on load the leaf is the file's last entry, so the live branch is the path from it up to the root.
 * With a compaction on that path, what the model sees is its summary, then the path's entries from the
 * compaction's `firstKeptEntryId` up to it, then those after it (`buildSessionContext`): the entries before the
 * kept ones are compacted history. Entries off the path are abandoned branches (a `/tree` jump, a rewind).
 *
 * The tree is kept in columns of numbers (lib/io/columns.ts), entries numbered in file order and ids by a
 * StringSet, not an object per entry: a streamed session of hundreds of thousands of entries keeps its tree in
 * a few megabytes, and its records are read again from the file by their place when they are needed.
 *
 * Every walk here is linear in the entries: the path is followed once with a visited mark (a loop of parent
 * links in a hostile file ends it), and branches are grouped in one pass in file order.
 */
import { float64Column, int32Column, uint8Column } from "../../io/columns.ts";
import { StringSet } from "../../io/string-set.ts";

/** What the tree keeps of one entry as it is read. */
export interface EntryFacts {
  /** The id other entries name it by (`parentId`, `firstKeptEntryId`). */
  id: string;
  parentId: string | null;
  type: string;
  line: number;
  offset: number;
  length: number;
  /** A compaction's `firstKeptEntryId`, when it names one. */
  firstKeptId?: string;
  /** A version 1 compaction's `firstKeptEntryIndex`: an index into the file's entries, the header at 0. */
  firstKeptIndex?: number;
  /** The provider the entry switches to (see resumeProvider); absent when it switches none. */
  provider?: { name: string | undefined };
}

/** Entries on the live path, from the root to the leaf, and whether the walk met an entry twice. */
export interface LivePath {
  path: Int32Array;
  /** A loop of parent links, cut where it closed. */
  looped: boolean;
}

export interface Context {
  /** The entries the model sees, in order: the last compaction first, when the path has one. */
  context: Int32Array;
  /** The path's entries before the compaction's kept ones: what it summarized (earlier compactions among them). */
  compacted: Int32Array;
}

/** The groups of entries off the live path (see PiTree.branches). */
export interface Branches {
  count: number;
  /** Group `g`'s first entry. */
  first(g: number): number;
  /** Group `g`'s entries, in file order. */
  entries(g: number): Iterable<number>;
}

/** Columns hold numbers plus one, so an entry never set reads as none (-1). */
const plusOne = (n: number): number => n + 1;

export class PiTree {
  private readonly ids = new StringSet();
  /** Per entry: its id's number, its parent id's (plus one), its type's, its place, its kept uid. */
  private readonly idOf = int32Column();
  private readonly parentOf = int32Column();
  private readonly typeOf = int32Column();
  private readonly lines = float64Column();
  private readonly offsets = float64Column();
  private readonly lengths = float64Column();
  /** 1 when the entry's id was taken by an earlier entry: its uid is the id and its line. */
  private readonly renamed = uint8Column();
  /** Per entry: a compaction's kept id (plus one); a version 1 compaction's entry index (plus one), until ended. */
  private readonly firstKept = int32Column();
  private readonly firstKeptIndex = float64Column();
  /** Per entry: 0 when it switches no provider, 1 when to none, else its provider's number plus two. */
  private readonly providerOf = int32Column();
  /** Per id number: the last entry with that id, plus one (Pi finds an id's last entry). */
  private readonly lastOf = int32Column();
  private readonly types = new Names();
  private readonly providers = new Names();

  get size(): number {
    return this.idOf.length;
  }

  /** The id of the entry added last, if any. */
  lastId(): string | undefined {
    return this.size ? this.id(this.size - 1) : undefined;
  }

  add(entry: EntryFacts): void {
    const e = this.size;
    const id = this.ids.add(entry.id);
    this.idOf.push(id);
    this.parentOf.push(entry.parentId === null ? 0 : plusOne(this.ids.add(entry.parentId)));
    this.typeOf.push(this.types.number(entry.type));
    this.lines.push(entry.line);
    this.offsets.push(entry.offset);
    this.lengths.push(entry.length);
    this.renamed.push(this.lastOf.get(id) ? 1 : 0);
    this.lastOf.set(id, plusOne(e));
    this.firstKept.push(entry.firstKeptId === undefined ? 0 : plusOne(this.ids.add(entry.firstKeptId)));
    this.firstKeptIndex.push(entry.firstKeptIndex ?? 0);
    const provider = entry.provider;
    this.providerOf.push(
      !provider ? 0 : provider.name === undefined ? 1 : this.providers.number(provider.name) + 2,
    );
  }

  /**
   * Once every entry is added: a version 1 compaction's `firstKeptEntryIndex` made the id of that entry, as Pi
   * migrates it (entry i of the file is entry i - 1 here: no line was left out of a version 1 file).
   */
  end(): void {
    for (let e = 0; e < this.size; e++) {
      const index = this.firstKeptIndex.get(e);
      if (this.type(e) === "compaction" && Number.isInteger(index) && index >= 1 && index - 1 < this.size) {
        this.firstKept.set(e, plusOne(this.idOf.get(index - 1)));
      }
    }
  }

  id(e: number): string {
    return this.ids.get(this.idOf.get(e));
  }

  type(e: number): string {
    return this.types.name(this.typeOf.get(e));
  }

  /** Unique in the session: the id, or the id and the line for a second entry taking a taken id. */
  uid(e: number): string {
    return this.renamed.get(e) ? `${this.id(e)}:${this.line(e)}` : this.id(e);
  }

  line(e: number): number {
    return this.lines.get(e);
  }

  /** Where the entry's record is in the file. */
  place(e: number): { offset: number; length: number } {
    return { offset: this.offsets.get(e), length: this.lengths.get(e) };
  }

  /** The entry its parent id names, as Pi finds it (the last entry of that id), or -1. */
  parent(e: number): number {
    const id = this.parentOf.get(e) - 1;
    return id < 0 ? -1 : this.lastOf.get(id) - 1;
  }

  /** The path from the last entry (the leaf Pi loads) up to the root, each id found as Pi finds it. */
  livePath(): LivePath {
    const seen = uint8Column();
    const path = int32Column();
    let looped = false;
    for (let at = this.size - 1; at >= 0; at = this.parent(at)) {
      if (seen.get(at)) {
        looped = true;
        break;
      }
      seen.set(at, 1);
      path.push(at);
    }
    const out = new Int32Array(path.length);
    for (let i = 0; i < out.length; i++) out[i] = path.get(out.length - 1 - i);
    return { path: out, looped };
  }

  /** The live path as the model sees it (`buildSessionContext`): only the last compaction on it counts. */
  contextOf(path: Int32Array): Context {
    let at = -1;
    for (let i = 0; i < path.length; i++) if (this.type(path[i]!) === "compaction") at = i;
    if (at < 0) return { context: path, compacted: path.subarray(0, 0) };
    const kept = this.firstKept.get(path[at]!) - 1;
    let cut = at;
    // A firstKeptEntryId not on the path keeps nothing before the compaction, as in Pi.
    for (let i = 0; i < at && kept >= 0; i++) {
      if (this.idOf.get(path[i]!) === kept) {
        cut = i;
        break;
      }
    }
    const context = new Int32Array(path.length - cut);
    context[0] = path[at]!;
    context.set(path.subarray(cut, at), 1);
    context.set(path.subarray(at + 1), 1 + at - cut);
    return { context, compacted: path.subarray(0, cut) };
  }

  /**
   * The entries off the live path, one group per place a branch leaves it (in file order within each): an
   * entry joins its parent's group, or starts one when its parent is on the path, missing, or further down the
   * file (Pi appends a child after its parent; a file saying otherwise gets a group per such entry).
   */
  branches(path: Int32Array): Branches {
    const onPath = uint8Column();
    for (const e of path) onPath.set(e, 1);
    /** Per id number: the last entry of that id read so far, plus one. */
    const seen = int32Column();
    /** Per entry off the path: its group plus one, and the next entry of its group plus one. */
    const groupOf = int32Column();
    const next = int32Column();
    const first = int32Column();
    const last = int32Column();
    for (let e = 0; e < this.size; e++) {
      const parentId = this.parentOf.get(e) - 1;
      const parent = parentId < 0 ? -1 : seen.get(parentId) - 1;
      seen.set(this.idOf.get(e), plusOne(e));
      if (onPath.get(e)) continue;
      let group = parent >= 0 && !onPath.get(parent) ? groupOf.get(parent) - 1 : -1;
      if (group < 0) {
        group = first.length;
        first.push(plusOne(e));
      } else next.set(last.get(group) - 1, plusOne(e));
      last.set(group, plusOne(e));
      groupOf.set(e, plusOne(group));
    }
    return {
      count: first.length,
      first: (g) => first.get(g) - 1,
      entries: (g) => ({
        *[Symbol.iterator]() {
          for (let e = first.get(g) - 1; e >= 0; e = next.get(e) - 1) yield e;
        },
      }),
    };
  }

  /**
   * The provider Pi resumes on: the last model_change on the path, or the last assistant message's
   * (`buildSessionContext`).
   */
  resumeProvider(path: Int32Array): string | undefined {
    let provider: string | undefined;
    for (const e of path) {
      const code = this.providerOf.get(e);
      if (code) provider = code === 1 ? undefined : this.providers.name(code - 2);
    }
    return provider;
  }
}

/** A few distinct names (entry types, providers) numbered as first met. */
class Names {
  private readonly numbers = new Map<string, number>();
  private readonly names: string[] = [];

  number(name: string): number {
    let n = this.numbers.get(name);
    if (n === undefined) {
      n = this.names.push(name) - 1;
      this.numbers.set(name, n);
    }
    return n;
  }

  name(n: number): string {
    return this.names[n]!;
  }
}
