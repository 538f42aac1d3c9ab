/**
 * A harness at work on a session, for the reads campaign: `harness-writer.ts claude|codex|hermes FILE ID`
 * appends turns to a Claude Code transcript or a Codex rollout (each line in two writes, so a reader can find
 * half of one), or inserts messages into a Hermes state.db in transactions, until its stdin closes; then it
 * finishes the turn it is writing and exits, printing how many it wrote.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";

const [kind, file, id] = process.argv.slice(2) as [string, string, string];
let stopped = false;
process.stdin.on("end", () => (stopped = true)).resume();

/** Appends `line` as a harness mid-turn does: half of it, a pause, the rest. */
async function appendInTwo(line: string): Promise<void> {
  const half = Math.floor(line.length / 2);
  appendFileSync(file, line.slice(0, half));
  await new Promise((resolve) => setTimeout(resolve, 1));
  appendFileSync(file, `${line.slice(half)}\n`);
}

function lastUuid(): string | null {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  return (JSON.parse(lines.at(-1)!) as { uuid?: string }).uuid ?? null;
}

let turns = 0;
let parent = kind === "claude" ? lastUuid() : null;
const db = kind === "hermes" ? new DatabaseSync(file, { timeout: 5000 }) : undefined;
while (!stopped) {
  const text = `typed while being read, turn ${++turns}`;
  const at = new Date(Date.UTC(2026, 11, 1, 0, 0, turns));
  if (kind === "claude") {
    const uuid = randomUUID();
    await appendInTwo(JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      type: "user",
      message: { role: "user", content: text },
      uuid,
      timestamp: at.toISOString(),
      sessionId: id,
    }));
    parent = uuid;
  } else if (kind === "codex") {
    await appendInTwo(JSON.stringify({
      timestamp: at.toISOString(),
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    }));
  } else {
    db!.exec("BEGIN IMMEDIATE");
    const insert = db!.prepare(
      "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
    );
    insert.run(id, "user", text, at.getTime() / 1000);
    insert.run(id, "assistant", `answer ${turns}`, at.getTime() / 1000);
    db!.prepare("UPDATE sessions SET message_count = message_count + 2 WHERE id = ?").run(id);
    db!.exec("COMMIT");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
db?.close();
console.log(`${turns} turns written`);
