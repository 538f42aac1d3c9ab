/**
 * Test helper run as a separate process, standing in for a running Hermes: opens a copy of a real state.db in
 * WAL mode with auto-checkpoint off, adds a session and its messages (they stay in the -wal file, not in the
 * main database), prints "ready" and holds the connection open until its stdin closes.
 */
import { DatabaseSync } from "node:sqlite";

const [path, id] = process.argv.slice(2) as [string, string];
const db = new DatabaseSync(path);
db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;");
db.prepare("INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)").run(id, Date.now() / 1000);
for (const [i, role] of ["user", "assistant"].entries()) {
  db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")
    .run(id, role, `${role} words held in the WAL`, Date.now() / 1000 + i);
}
console.log("ready");
process.stdin.resume();
process.stdin.on("end", () => {
  db.close();
  process.exit(0);
});
