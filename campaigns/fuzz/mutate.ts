/**
 * The mutations: each takes a staged file and a mutant's generator, changes the file in place and says what it
 * did, in words precise enough to redo it by hand. Text files get byte, line and JSON-field damage; databases
 * get SQLite-level damage (pages, tables, columns, cells) besides raw bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { Random } from "./random.ts";

export type FileKind = "text" | "database";

type Mutation = (path: string, random: Random) => string | undefined;

/** What can be done to a file of each kind, by name (the name starts the mutant's description). */
export const MUTATIONS: Record<FileKind, readonly string[]> = {
  text: [
    "flip-bytes",
    "truncate",
    "duplicate-line",
    "delete-line",
    "swap-lines",
    "wrong-type",
    "huge-string",
    "deep-nesting",
    "invalid-utf8",
    "nul-bytes",
  ],
  database: [
    "page-corruption",
    "flip-bytes",
    "truncate",
    "drop-table",
    "drop-column",
    "wrong-cell",
    "delete-row",
  ],
};

/**
 * Applies one mutation chosen by `random` and returns its description. A mutation that finds nothing to act on
 * (a database without rows to change) gives way to byte flips, which always apply.
 */
export function mutateFile(path: string, kind: FileKind, random: Random): string {
  const name = random.pick(MUTATIONS[kind]);
  const done = ALL[name]!(path, random) ?? ALL["flip-bytes"]!(path, random)!;
  return done;
}

const ALL: Record<string, Mutation> = {
  "flip-bytes": onBytes((bytes, random) => {
    if (!bytes.length) return [Buffer.from([random.int(0, 255)]), "flip-bytes: an empty file given one byte"];
    const count = random.int(1, 16);
    const at: number[] = [];
    for (let i = 0; i < count; i++) {
      const offset = random.int(0, bytes.length - 1);
      bytes[offset] = bytes[offset]! ^ random.int(1, 255);
      at.push(offset);
    }
    return [bytes, `flip-bytes at ${at.join(",")}`];
  }),
  truncate: onBytes((bytes, random) => {
    const keep = random.int(0, Math.max(0, bytes.length - 1));
    return [bytes.subarray(0, keep), `truncate to ${keep} of ${bytes.length} bytes`];
  }),
  "duplicate-line": onLines((lines, random) => {
    const from = random.int(0, lines.length - 1);
    const to = random.int(0, lines.length);
    lines.splice(to, 0, lines[from]!);
    return `duplicate-line ${from + 1} before line ${to + 1}`;
  }),
  "delete-line": onLines((lines, random) => {
    const from = random.int(0, lines.length - 1);
    const count = Math.min(random.int(1, 3), lines.length - from);
    lines.splice(from, count);
    return `delete-line ${from + 1} (${count} line${count > 1 ? "s" : ""})`;
  }),
  "swap-lines": onLines((lines, random) => {
    if (lines.length < 2) return undefined;
    const a = random.int(0, lines.length - 1);
    let b = random.int(0, lines.length - 2);
    if (b >= a) b++;
    [lines[a], lines[b]] = [lines[b]!, lines[a]!];
    return `swap-lines ${a + 1} and ${b + 1}`;
  }),
  "wrong-type": onJson((value, random) => {
    const current = jsonType(value);
    const choices = WRONG_VALUES.filter((v) => jsonType(v.value) !== current);
    const chosen = random.pick(choices);
    return [chosen.raw ?? JSON.stringify(chosen.value), `a ${current} made ${chosen.label}`];
  }, "wrong-type"),
  "huge-string": onJson((_value, random) => {
    const megabytes = random.int(1, 8);
    const unit = random.pick(["A", "\u00e9", "\u202e", "\\", "\u{1F600}"]);
    const text = unit.repeat(Math.ceil((megabytes * 1024 * 1024) / Buffer.byteLength(unit)));
    return [JSON.stringify(text), `a ${megabytes} MB string of ${JSON.stringify(unit)}`];
  }, "huge-string"),
  "deep-nesting": onJson((_value, random) => {
    const depth = random.int(1_000, 200_000);
    const raw = random.int(0, 1)
      ? "[".repeat(depth) + "]".repeat(depth)
      : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    return [raw, `${raw.startsWith("[") ? "arrays" : "objects"} nested ${depth} deep`];
  }, "deep-nesting"),
  "invalid-utf8": insideAString(
    (random) => Buffer.from(random.pick(INVALID_UTF8)),
    "invalid-utf8",
  ),
  "nul-bytes": insideAString((random) => Buffer.alloc(random.int(1, 4)), "nul-bytes"),
  "page-corruption": onBytes((bytes, random) => {
    const declared = bytes.length >= 18 ? bytes.readUInt16BE(16) : 0;
    const pageSize = declared === 1 ? 65536 : declared >= 512 ? declared : 4096;
    const pages = Math.max(1, Math.floor(bytes.length / pageSize));
    const page = random.int(0, pages - 1);
    const start = page * pageSize;
    const end = Math.min(bytes.length, start + pageSize);
    const how = random.pick(["zeroed", "random bytes", "b-tree header"] as const);
    if (how === "zeroed") bytes.fill(0, start, end);
    else if (how === "random bytes") {
      const offset = random.int(start, Math.max(start, end - 1));
      const length = random.int(1, Math.max(1, end - offset));
      random.bytes(length).copy(bytes, offset);
    } else {
      // The b-tree page header: page type, first freeblock, cell count, cell content start (page 1 after the
      // 100-byte file header).
      const header = start + (page === 0 ? 100 : 0);
      random.bytes(8).copy(bytes, Math.min(header, Math.max(0, bytes.length - 8)));
    }
    return [bytes, `page-corruption of page ${page + 1} of ${pages} (${how})`];
  }),
  "drop-table": onDatabase((db, random) => {
    const table = random.pick(tables(db));
    db.exec(`DROP TABLE ${quote(table)}`);
    return `drop-table ${table}`;
  }),
  "drop-column": onDatabase((db, random) => {
    const table = random.pick(tables(db));
    const columns = columnsOf(db, table);
    const column = random.pick(columns);
    const kept = columns.filter((c) => c !== column);
    // Rebuilt rather than ALTER TABLE DROP COLUMN, which refuses indexed, keyed and referenced columns: a store
    // missing a column is what is wanted, however it came to be.
    db.exec("PRAGMA legacy_alter_table = ON");
    db.exec("BEGIN");
    if (kept.length) {
      db.exec(`CREATE TABLE fuzz_rebuilt AS SELECT ${kept.map(quote).join(", ")} FROM ${quote(table)}`);
      db.exec(`DROP TABLE ${quote(table)}`);
      db.exec(`ALTER TABLE fuzz_rebuilt RENAME TO ${quote(table)}`);
    } else db.exec(`DROP TABLE ${quote(table)}`);
    db.exec("COMMIT");
    return `drop-column ${table}.${column}`;
  }),
  "wrong-cell": onDatabase((db, random) => {
    const table = random.pick(tables(db).filter((t) => rowCount(db, t) > 0));
    const column = random.pick(columnsOf(db, table));
    const rowid = rowidAt(db, table, random.int(0, rowCount(db, table) - 1));
    const chosen = random.pick(WRONG_CELLS);
    db.prepare(`UPDATE ${quote(table)} SET ${quote(column)} = ? WHERE rowid = ?`).run(chosen.value(), rowid);
    return `wrong-cell ${table}.${column} of rowid ${rowid} set to ${chosen.label}`;
  }),
  "delete-row": onDatabase((db, random) => {
    const table = random.pick(tables(db).filter((t) => rowCount(db, t) > 0));
    const rowid = rowidAt(db, table, random.int(0, rowCount(db, table) - 1));
    db.prepare(`DELETE FROM ${quote(table)} WHERE rowid = ?`).run(rowid);
    return `delete-row ${table} rowid ${rowid}`;
  }),
};

/** Values of every JSON type but the one a field has; big integers and numbers are written as raw text. */
const WRONG_VALUES: { label: string; value: unknown; raw?: string }[] = [
  { label: "null", value: null },
  { label: "true", value: true },
  { label: "0", value: 0 },
  { label: "-1", value: -1 },
  { label: "2^53 + 1", value: 1, raw: "9007199254740993" },
  { label: "1e308", value: 1, raw: "1e308" },
  { label: "an empty string", value: "" },
  { label: '"not-a-date"', value: "not-a-date" },
  { label: "an empty array", value: [] },
  { label: "[null]", value: [null] },
  { label: "an empty object", value: {} },
  { label: '{"type":1}', value: { type: 1 } },
];

const INVALID_UTF8 = [[0xff], [0xfe, 0xfe], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [
  0xf8,
  0x88,
  0x80,
  0x80,
  0x80,
]];

const WRONG_CELLS: { label: string; value: () => SQLInputValue }[] = [
  { label: "NULL", value: () => null },
  { label: "2^53 + 1", value: () => 9007199254740993n },
  { label: "-1", value: () => -1 },
  { label: "1e308", value: () => 1e308 },
  { label: '"not a number"', value: () => "not a number" },
  { label: "an empty string", value: () => "" },
  { label: '"not-a-date"', value: () => "not-a-date" },
  { label: "a blob of invalid UTF-8", value: () => Buffer.from([0xff, 0xfe, 0xc3, 0x28]) },
  { label: "text with a NUL", value: () => "a\u0000b" },
  { label: "a 4 MB string", value: () => "A".repeat(4 * 1024 * 1024) },
  { label: "JSON nested 100000 deep", value: () => "[".repeat(100_000) + "]".repeat(100_000) },
  { label: '{"role":5}', value: () => '{"role":5}' },
];

function onBytes(change: (bytes: Buffer, random: Random) => [Buffer, string]): Mutation {
  return (path, random) => {
    const [bytes, description] = change(readFileSync(path), random);
    writeFileSync(path, bytes);
    return description;
  };
}

/** Lines as bytes (split on LF only, so invalid UTF-8 elsewhere survives), the last one kept if unterminated. */
function onLines(change: (lines: Buffer[], random: Random) => string | undefined): Mutation {
  return (path, random) => {
    const lines = splitLines(readFileSync(path));
    if (!lines.length) return undefined;
    const description = change(lines, random);
    if (description) writeFileSync(path, Buffer.concat(lines.flatMap((l) => [l, NEWLINE])));
    return description;
  };
}

const NEWLINE = Buffer.from("\n");

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, start)) {
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/**
 * A field of a JSON record (a line of a JSONL file, or the whole of a JSON file) replaced: the field is picked
 * among those the fixture has, so the damage lands on fields a reader knows.
 */
function onJson(replace: (value: unknown, random: Random) => [string, string], name: string): Mutation {
  return (path, random) => {
    const bytes = readFileSync(path);
    const whole = parseJson(bytes);
    const records = whole !== undefined ? [bytes] : splitLines(bytes);
    const parsed = records.map((r, i) => ({ i, value: whole ?? parseJson(r) }))
      .filter((r) => typeof r.value === "object" && r.value !== null);
    if (!parsed.length) return undefined;
    const record = random.pick(parsed);
    const fields = fieldPaths(record.value);
    if (!fields.length) return undefined;
    const field = random.pick(fields);
    const [raw, what] = replace(valueAt(record.value, field), random);
    const placeholder = "\u0001fuzz\u0001";
    setAt(record.value, field, placeholder);
    const text = JSON.stringify(record.value).replace(JSON.stringify(placeholder), () => raw);
    records[record.i] = Buffer.from(text);
    writeFileSync(
      path,
      whole !== undefined ? records[0]! : Buffer.concat(records.flatMap((l) => [l, NEWLINE])),
    );
    const where = whole !== undefined ? "" : ` of line ${record.i + 1}`;
    return `${name}: ${fieldName(field)}${where} is ${what}`;
  };
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}

type FieldPath = (string | number)[];

/** Every field and element path in a record (not the record itself), in document order, to a bounded depth. */
function fieldPaths(value: unknown, prefix: FieldPath = [], out: FieldPath[] = []): FieldPath[] {
  if (prefix.length > 12 || typeof value !== "object" || value === null) return out;
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(path);
    fieldPaths(child, path, out);
  }
  return out;
}

function valueAt(value: unknown, path: FieldPath): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

function setAt(value: unknown, path: FieldPath, replacement: unknown): void {
  const parent = valueAt(value, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path.at(-1)!] = replacement;
}

function fieldName(path: FieldPath): string {
  return "$" + path.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("");
}

function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** Bytes put just inside a string (after a `"` of a random line), where a decoder meets them as text. */
function insideAString(bytesFor: (random: Random) => Buffer, name: string): Mutation {
  return onBytes((bytes, random) => {
    const quotes: number[] = [];
    for (let i = bytes.indexOf(34); i !== -1 && quotes.length < 100_000; i = bytes.indexOf(34, i + 1)) {
      quotes.push(i);
    }
    const at = quotes.length ? random.pick(quotes) + 1 : random.int(0, bytes.length);
    const inserted = bytesFor(random);
    const changed = Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(at)]);
    return [changed, `${name}: ${inserted.toString("hex")} inserted at byte ${at}`];
  });
}

/** A change made through SQLite itself; undefined (and the file as it was) when the database has nothing to change. */
function onDatabase(change: (db: DatabaseSync, random: Random) => string): Mutation {
  return (path, random) => {
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(path);
      return change(db, random);
    } catch {
      return undefined;
    } finally {
      db?.close();
    }
  };
}

function tables(db: DatabaseSync): string[] {
  return (db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
  ).all() as { name: string }[]).map((r) => r.name);
}

function columnsOf(db: DatabaseSync, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${quote(table)})`).all() as { name: string }[]).map((r) => r.name);
}

function rowCount(db: DatabaseSync, table: string): number {
  return Number((db.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n);
}

function rowidAt(db: DatabaseSync, table: string, offset: number): number {
  const row = db.prepare(`SELECT rowid AS id FROM ${quote(table)} ORDER BY rowid LIMIT 1 OFFSET ?`).get(
    offset,
  );
  return Number((row as { id: number }).id);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
