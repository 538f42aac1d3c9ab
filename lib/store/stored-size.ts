/**
 * Whether a session kept in a SQLite store is large enough to be read streamed. Its rows' bytes are counted
 * only when the database's files could hold that many: no row's values take more room than the files that
 * store them (its WAL included, where the newest rows may still be), so a smaller database is answered by its
 * size alone. Counting a 70 MB session's rows took 25-50 ms of a conversion; a file's size takes a stat.
 */
import { databaseBytes } from "./sqlite.ts";

/** Whether the rows `count` counts (read on asking) in database `file` take at least `limit` bytes. */
export function storesAtLeast(file: string, limit: number, count: () => number): boolean {
  return databaseBytes(file) >= limit && count() >= limit;
}
