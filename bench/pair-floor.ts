/**
 * The floor under a conversion between two harnesses: what Bun alone takes to read and parse every record of
 * the source's store, then stringify and write every record of what the conversion wrote, nothing converted.
 * A store of JSONL or JSON files is read as bench/convert-floor.ts reads its file; a SQLite store (`db#id`,
 * as a handoff names its session) as every row of its tables, each JSON text in them parsed. An output file is
 * loaded first (its reading is no part of the floor: the conversion made it in memory), then written and
 * synced; an output database's rows are inserted into an emptied copy of it in one transaction, its triggers
 * firing. The CPU and wall time of that preparation are printed for the bench to take off the process's own.
 * A handoff into a store of files may also insert rows into the harness's index databases (Copilot CLI's
 * full-text session store, Codex's thread index): each is named by its state before (the handoff's backup of
 * it) and after, and the floor inserts the rows the handoff added into a copy of the state before, in one
 * transaction, its full-text indexes and triggers doing their work.
 * Run as a program: `bun bench/pair-floor.ts <source> <output the conversion wrote> <scratch file>
 * [<index before> <index after>]...`.
 */
import { copyFileSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { eachLine, LineSink } from "./convert-floor.ts";

export interface PairFloor {
  /** Records read from the source and written to the scratch file. */
  read: number;
  written: number;
  /** Rows inserted into the index databases the handoff wrote to. */
  indexRows: number;
  /** What loading the output took, to subtract from the process's figures. */
  loadCpuSeconds: number;
  loadSeconds: number;
}

/** The records of a JSONL file, or the one value of a whole-file JSON (a file whose first line is not JSON). */
function parseFile(path: string, each: (record: unknown) => void): number {
  try {
    return eachLine(path, (line) => each(JSON.parse(line)));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    each(JSON.parse(readFileSync(path, "utf8")));
    return 1;
  }
}

const isDatabase = (store: string) => store.endsWith(".db");

/**
 * A database's tables as its schema declares them, but for a full-text index's own tables (named after it:
 * messages_fts_data) and SQLite's.
 */
function declaredTables(db: DatabaseSync): { name: string; virtual: boolean; rowid: boolean }[] {
  const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").all() as {
    name: string;
    sql: string;
  }[];
  const declared = tables.map((t) => ({
    name: t.name,
    virtual: /^CREATE VIRTUAL/i.test(t.sql),
    rowid: !/WITHOUT ROWID\s*$/i.test(t.sql),
  }));
  const indexes = declared.filter((t) => t.virtual).map((t) => t.name);
  return declared.filter((t) =>
    !indexes.some((v) => t.name.startsWith(`${v}_`)) && !t.name.startsWith("sqlite_")
  );
}

/** The tables of a database that hold its records: not a full-text index (it indexes them). */
const recordTables = (db: DatabaseSync): string[] =>
  declaredTables(db).filter((t) => !t.virtual).map((t) => t.name);

/** The tables a handoff may append rows to, found by row id: a full-text index's counts (its work is the index's). */
const rowTables = (db: DatabaseSync): string[] =>
  declaredTables(db).filter((t) => t.rowid).map((t) => t.name);

/** Every row of every record table of a database, each JSON text parsed. */
function parseDatabase(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    let rows = 0;
    for (const name of recordTables(db)) {
      for (
        const row of db.prepare(`SELECT * FROM "${name}"`).iterate() as Iterable<Record<string, unknown>>
      ) {
        for (const value of Object.values(row)) {
          if (typeof value === "string" && (value.startsWith("{") || value.startsWith("["))) {
            try {
              JSON.parse(value);
            } catch {
              // Text that only looks like JSON: read, as the reader reads it.
            }
          }
        }
        rows++;
      }
    }
    return rows;
  } finally {
    db.close();
  }
}

/** `prepare` untimed (its CPU and wall time returned), then `write` timed by the process's own figures. */
function preparedThen<T>(prepare: () => T, write: (prepared: T) => number) {
  const [cpuBefore, wallBefore] = [process.cpuUsage(), performance.now()];
  const prepared = prepare();
  const load = process.cpuUsage(cpuBefore);
  const loadSeconds = (performance.now() - wallBefore) / 1000;
  return { written: write(prepared), loadCpuSeconds: (load.user + load.system) / 1e6, loadSeconds };
}

/** The output file's records, loaded, then stringified and written to `scratch`. */
function writeFile(output: string, scratch: string) {
  return preparedThen(() => {
    const records: unknown[] = [];
    parseFile(output, (record) => records.push(record));
    return records;
  }, (records) => {
    const sink = new LineSink(scratch);
    try {
      for (const record of records) sink.write(JSON.stringify(record));
    } finally {
      sink.close();
    }
    return records.length;
  });
}

/** The output database's rows inserted into an emptied copy of it (`scratch`), as one transaction. */
function writeDatabase(output: string, scratch: string) {
  // Rows are copied table by table: the order a store's foreign keys want is no part of the floor.
  const open = () => new DatabaseSync(scratch, { enableForeignKeyConstraints: false });
  return preparedThen(() => {
    copyFileSync(output, scratch);
    const db = open();
    try {
      const tables = recordTables(db);
      db.exec(`BEGIN; ${tables.map((t) => `DELETE FROM "${t}";`).join(" ")} COMMIT`);
      return tables;
    } finally {
      db.close();
    }
  }, (tables) => {
    const db = open();
    try {
      db.prepare("ATTACH DATABASE ? AS src").run(output);
      db.exec("BEGIN");
      let rows = 0;
      for (const t of tables) {
        rows += Number(db.prepare(`INSERT INTO main."${t}" SELECT * FROM src."${t}"`).run().changes);
      }
      db.exec("COMMIT");
      return rows;
    } finally {
      db.close();
    }
  });
}

/**
 * The rows `after` holds beyond `before` (a handoff appends: its rows take row ids past the last one), inserted
 * into a copy of `before` at `scratch` in one transaction.
 */
function insertAddedRows(before: string, after: string, scratch: string) {
  return preparedThen(() => {
    copyFileSync(before, scratch);
    const db = new DatabaseSync(scratch, { enableForeignKeyConstraints: false });
    const tables = rowTables(db).map((t) => {
      const columns = (db.prepare(`SELECT * FROM "${t}" LIMIT 0`).columns() as { name: string }[])
        .map((c) => `"${c.name}"`).join(", ");
      const last = db.prepare(`SELECT coalesce(max(rowid), 0) AS last FROM "${t}"`).get() as { last: number };
      return { t, columns, last: last.last };
    });
    return { db, tables };
  }, ({ db, tables }) => {
    try {
      db.prepare("ATTACH DATABASE ? AS after").run(after);
      db.exec("BEGIN");
      let rows = 0;
      for (const { t, columns, last } of tables) {
        rows += Number(
          db.prepare(
            `INSERT INTO main."${t}" (${columns}) SELECT ${columns} FROM after."${t}" WHERE rowid > ?`,
          )
            .run(last).changes,
        );
      }
      db.exec("COMMIT");
      return rows;
    } finally {
      db.close();
    }
  });
}

export function pairFloor(
  source: string,
  output: string,
  scratch: string,
  indexes: readonly { before: string; after: string }[] = [],
): PairFloor {
  const store = (ref: string) => ref.replace(/#[^/]*$/, "");
  const read = isDatabase(store(source)) ? parseDatabase(store(source)) : parseFile(store(source), () => {});
  const written = isDatabase(store(output))
    ? writeDatabase(store(output), scratch)
    : writeFile(output, scratch);
  let indexRows = 0;
  for (const [i, { before, after }] of indexes.entries()) {
    const inserted = insertAddedRows(before, after, `${scratch}.index-${i}.db`);
    indexRows += inserted.written;
    written.loadCpuSeconds += inserted.loadCpuSeconds;
    written.loadSeconds += inserted.loadSeconds;
  }
  return { read, ...written, indexRows };
}

if (import.meta.main) {
  const [source, output, scratch, ...pairs] = process.argv.slice(2);
  const indexes = Array.from(
    { length: pairs.length / 2 },
    (_, i) => ({ before: pairs[2 * i]!, after: pairs[2 * i + 1]! }),
  );
  console.log(JSON.stringify(pairFloor(source!, output!, scratch!, indexes)));
}
