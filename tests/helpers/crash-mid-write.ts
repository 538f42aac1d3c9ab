/**
 * A writer killed mid-transaction: opens the database at argv[2] in rollback-journal (DELETE) mode, changes
 * enough rows inside one transaction that SQLite spills pages to the file, and kills itself with SIGKILL, so
 * nothing is rolled back or cleaned up. What is left is a database with a hot `-journal` beside it.
 */
import { DatabaseSync } from "node:sqlite";

const path = process.argv[2]!;
const db = new DatabaseSync(path);
db.exec("PRAGMA journal_mode = DELETE");
db.exec("PRAGMA cache_size = 1");
db.exec("BEGIN");
db.exec("UPDATE messages SET content = content || ' (half-written)'");
db.exec("DELETE FROM messages WHERE id % 2 = 0");
process.kill(process.pid, "SIGKILL");
