/**
 * Test helper run as a separate process: opens a database in WAL mode, writes rows that stay in the -wal file
 * (auto-checkpoint off), prints "ready" and holds the connection open until its stdin closes, like a running
 * harness would.
 */
import { DatabaseSync } from "node:sqlite";

const db = new DatabaseSync(process.argv[2]!);
db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;");
db.exec("CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, title TEXT)");
db.exec("BEGIN");
for (let i = 0; i < 50; i++) db.prepare("INSERT INTO sessions VALUES (?, ?)").run(`s${i}`, `title ${i}`);
db.exec("COMMIT");
console.log("ready");
process.stdin.resume();
process.stdin.on("end", () => {
  db.close();
  process.exit(0);
});
