/**
 * Rows in a SQLite table, described the way storage sees them: a database, a table, and the key columns with
 * the values that pick the rows out. The undo ledger keeps these for every handoff that inserted rows; nothing
 * here knows which harness wrote them or what the rows mean.
 */
export interface KeyedRows {
  database: string;
  table: string;
  /** Key column name to value: the rows are those where every named column holds its value. */
  key: Record<string, string | number>;
  /**
   * How many rows matched `key` when the operation finished. More later means a harness has added to them
   * since (the session was resumed), and undo must not delete that work without being forced.
   */
  count?: number;
  /**
   * A backup database holding the rows `key` matched before the operation (rows it replaced): undo puts those
   * back after deleting what the operation left there.
   */
  restoreFrom?: string;
}
