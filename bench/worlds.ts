/**
 * A machine with many sessions, for measuring listing and the TUI's first screen at scale: N sessions spread
 * over the three stores (a Claude Code home, a Codex home with its `threads` index, a Hermes `state.db`), of
 * varied sizes adding up to the requested megabytes, every one built from records the real harnesses wrote
 * (fixtures/). Deterministic: the same arguments build the same world (ids aside).
 *
 *   const world = buildWorld(dir, { sessions: 2000, megabytes: 200 });
 *   spawn(binary, ["list"], { env: { ...process.env, HOME: dir, ...world.env } });
 */
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { generateClaudeSession } from "./session.ts";
import { emptyHermesHome } from "./hermes-floor.ts";
import { createCodexStore } from "../lib/harnesses/codex/first-run.ts";

const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));
const MB = 1024 * 1024;
const DAY_MS = 86_400_000;

export interface WorldOptions {
  sessions: number;
  megabytes: number;
}

export interface World {
  sessions: number;
  /** Bytes written in transcripts and rows' content. */
  bytes: number;
  /** The harness homes, as the environment variables that point session-bridge (and the harnesses) at them. */
  env: { CLAUDE_CONFIG_DIR: string; CODEX_HOME: string; HERMES_HOME: string };
}

/**
 * Sizes from a few KB to a few MB, most of them small as on a real machine: weights rising with the square of a
 * scrambled index, scaled so they add up to `total` bytes.
 */
function sizes(count: number, total: number): number[] {
  const weights = Array.from({ length: count }, (_, i) => ((i * 7919) % 97 + 1) ** 2);
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.max(4096, Math.round((w / sum) * total)));
}

const project = (i: number) => `/home/user/projects/app-${i % 40}`;
const when = (i: number) => new Date(Date.parse("2026-06-01T00:00:00Z") + i * (DAY_MS / 13));

export function buildWorld(dir: string, options: WorldOptions): World {
  const env = {
    CLAUDE_CONFIG_DIR: join(dir, "claude"),
    CODEX_HOME: join(dir, "codex"),
    HERMES_HOME: join(dir, "hermes"),
  };
  const all = sizes(options.sessions, options.megabytes * MB);
  const byHarness = [0, 1, 2].map((h) => all.flatMap((size, i) => (i % 3 === h ? [{ size, i }] : [])));
  let bytes = 0;
  for (const { size, i } of byHarness[0]!) bytes += claudeSession(env.CLAUDE_CONFIG_DIR, size, i);
  bytes += codexSessions(env.CODEX_HOME, byHarness[1]!);
  bytes += hermesSessions(env.HERMES_HOME, byHarness[2]!);
  return { sessions: options.sessions, bytes, env };
}

function claudeSession(home: string, size: number, i: number): number {
  const cwd = project(i);
  const bucket = join(home, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
  mkdirSync(bucket, { recursive: true });
  const id = randomUUID();
  const path = join(bucket, `${id}.jsonl`);
  const written = generateClaudeSession(path, size / MB, { sessionId: id, cwd, start: when(i) });
  utimesSync(path, when(i), when(i));
  return written.bytes;
}

/** Rollouts copied from the fixture under their own ids and dates, padded with its items; one index row each. */
function codexSessions(home: string, sessions: { size: number; i: number }[]): number {
  const text = readFileSync(fixture("codex/0.169.0/tool-call.jsonl"), "utf8");
  const [row] = JSON.parse(readFileSync(fixture("codex/0.169.0/tool-call.threads.json"), "utf8")) as Record<
    string,
    unknown
  >[];
  const fixtureId = String(row!.id);
  const items = text.split("\n").filter((l) => l.includes('"type":"response_item"')).join("\n");
  const database = createCodexStore(home);
  const db = new DatabaseSync(database);
  let bytes = 0;
  try {
    const names = Object.keys(row!);
    const insert = db.prepare(
      `INSERT INTO threads (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${
        names.map(() => "?").join(", ")
      })`,
    );
    db.exec("BEGIN");
    for (const { size, i } of sessions) {
      const at = when(i);
      const id = mintedId(at);
      const stamp = at.toISOString().slice(0, 19).replace(/:/g, "-");
      const folder = join(home, "sessions", ...at.toISOString().slice(0, 10).split("-"));
      mkdirSync(folder, { recursive: true });
      const path = join(folder, `rollout-${stamp}-${id}.jsonl`);
      const cwd = project(i);
      let body = text.replaceAll(fixtureId, id).replaceAll("/home/user/project", cwd);
      while (body.length < size) body += `${items}\n`;
      writeFileSync(path, body);
      utimesSync(path, at, at);
      bytes += statSync(path).size;
      const title = `Refactor step ${i} of the parser module`;
      const values: Record<string, unknown> = {
        ...row,
        id,
        rollout_path: path,
        cwd,
        title,
        preview: title,
        first_user_message: title,
        created_at: Math.floor(at.getTime() / 1000),
        updated_at: Math.floor(at.getTime() / 1000),
        created_at_ms: at.getTime(),
        updated_at_ms: at.getTime(),
        recency_at: Math.floor(at.getTime() / 1000),
        recency_at_ms: at.getTime(),
      };
      insert.run(...names.map((n) => values[n] as string | number | null));
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  return bytes;
}

/** A UUIDv7 minted at `at`, as Codex names its threads. */
function mintedId(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, "0") + "7" + randomUUID().replace(/-/g, "").slice(13);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20, 32)
  }`;
}

/** One `state.db` (Hermes 0.19.0's schema and triggers) holding every session, its fixture turns repeated. */
function hermesSessions(home: string, sessions: { size: number; i: number }[]): number {
  const rows = JSON.parse(readFileSync(fixture("hermes/0.19.0/text-turns.rows.json"), "utf8")) as {
    sessions: Record<string, unknown>[];
    messages: Record<string, unknown>[];
  };
  const [session] = rows.sessions;
  const db = new DatabaseSync(emptyHermesHome(home));
  let bytes = 0;
  try {
    const statement = (table: string, row: Record<string, unknown>) => {
      const names = Object.keys(row).filter((n) => n !== "id" || table === "sessions");
      return {
        names,
        run: db.prepare(
          `INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${
            names.map(() => "?").join(", ")
          })`,
        ),
      };
    };
    const insertSession = statement("sessions", session!);
    const insertMessage = statement("messages", rows.messages[0]!);
    db.exec("BEGIN");
    for (const { size, i } of sessions) {
      const at = when(i).getTime() / 1000;
      const id = `${when(i).toISOString().slice(0, 10).replace(/-/g, "")}_${String(i).padStart(6, "0")}_${
        randomUUID().slice(0, 6)
      }`;
      const values: Record<string, unknown> = {
        ...session,
        id,
        title: null,
        started_at: at,
        ended_at: null,
        cwd: project(i),
      };
      insertSession.run.run(...insertSession.names.map((n) => (values[n] ?? null) as string | number | null));
      let written = 0;
      for (let turn = 0; written < size; turn++) {
        for (const message of rows.messages) {
          const content = typeof message.content === "string"
            ? `${message.content} ${turn ? "The quick brown fox re-runs the suite. ".repeat(40) : ""}`
            : message.content;
          const row: Record<string, unknown> = {
            ...message,
            session_id: id,
            content,
            timestamp: at + turn * 10 + Number(message.id),
          };
          insertMessage.run.run(
            ...insertMessage.names.map((n) => (row[n] ?? null) as string | number | null),
          );
          written += typeof content === "string" ? content.length : 0;
        }
      }
      bytes += written;
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  return bytes;
}
