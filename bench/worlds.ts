/**
 * A machine with many sessions, for measuring listing and the TUI's first screen at scale: N sessions spread
 * over every harness's store (a Claude Code home, a Codex home with its `threads` index, a Hermes `state.db`, a
 * Gemini CLI home with its `projects.json`, an OpenCode `opencode.db`, a Copilot CLI `session-state/`, a Pi agent
 * folder), of varied sizes adding up to the requested megabytes, every one
 * built from records the real harnesses wrote (fixtures/). Deterministic: the same arguments build the same
 * world (ids aside).
 *
 *   const world = buildWorld(dir, { sessions: 2000, megabytes: 200 });
 *   spawn(binary, ["list"], { env: { ...process.env, HOME: dir, ...world.env } });
 */
import { copyFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { generateClaudeSession } from "./session.ts";
import { emptyHermesHome } from "./hermes-floor.ts";
import { createCodexStore } from "../lib/harnesses/codex/first-run.ts";
import { builtinRegistry, type HarnessName } from "../lib/harnesses/registry.ts";
import { homeVariableValue } from "../lib/harnesses/homes.ts";
import { openCodeId, RowIds } from "../lib/harnesses/opencode/ids.ts";
import { newPiSessionId } from "../lib/harnesses/pi/ids.ts";
import { projectFolderName, sessionFileName } from "../lib/harnesses/pi/home.ts";

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
  /** Each harness's home, in a folder named after it (or a subfolder of it the harness's variable implies). */
  homes: Record<HarnessName, string>;
  /** The same homes, as the environment variables that point session-bridge (and the harnesses) at them. */
  env: Record<string, string>;
}

/** A store's sessions written into a harness's home; returns the bytes written. */
type Sessions = (home: string, sessions: { size: number; i: number }[]) => number;

/** How each harness's sessions are made (a harness without its maker here is a type error). */
const MAKERS: Record<HarnessName, Sessions> = {
  "claude-code": (home, sessions) =>
    sessions.reduce((bytes, { size, i }) => bytes + claudeSession(home, size, i), 0),
  codex: codexSessions,
  hermes: hermesSessions,
  "gemini-cli": geminiSessions,
  opencode: opencodeSessions,
  "copilot-cli": copilotSessions,
  pi: piSessions,
};

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

/** The sessions dealt in turn to the harnesses in the registry's order. */
export function buildWorld(dir: string, options: WorldOptions): World {
  const harnesses = builtinRegistry.harnesses;
  // A home in a folder named after its harness; one its variable names by the folder holding it
  // (`$XDG_DATA_HOME/opencode`) is that subfolder of it.
  const homes = Object.fromEntries(
    harnesses.map((h) => [h.name, join(dir, h.name, h.home.subfolder ?? "")]),
  ) as Record<HarnessName, string>;
  const all = sizes(options.sessions, options.megabytes * MB);
  let bytes = 0;
  harnesses.forEach((h, n) => {
    const dealt = all.flatMap((size, i) => (i % harnesses.length === n ? [{ size, i }] : []));
    bytes += MAKERS[h.name as HarnessName](homes[h.name as HarnessName], dealt);
  });
  const env = Object.fromEntries(
    harnesses.map((h) => [h.home.env, homeVariableValue(h.home, homes[h.name as HarnessName])!]),
  );
  return { sessions: options.sessions, bytes, homes, env };
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

/**
 * Gemini CLI 0.61.0's one-shot tool run (its metadata, context, prompt, thought, shell call and answer) under each
 * session's own id, date, project and title, its messages repeated under fresh ids to the session's size; each
 * project a folder named by its slug in `projects.json`, with its `.project_root`, as the CLI writes them.
 */
function geminiSessions(home: string, sessions: { size: number; i: number }[]): number {
  const text = readFileSync(fixture("gemini-cli/0.61.0/exec-tool.jsonl"), "utf8");
  const lines = text.split("\n").filter(Boolean);
  const [metadata] = lines.map((l) => JSON.parse(l) as { sessionId?: string });
  const fixtureId = metadata!.sessionId!;
  const messages = lines.filter((l) => l.startsWith('{"id":'));
  const messageIds = [...new Set(messages.map((l) => (JSON.parse(l) as { id: string }).id))];
  const store = join(home, ".gemini");
  const projects: Record<string, string> = {};
  let bytes = 0;
  for (const { size, i } of sessions) {
    const cwd = project(i);
    const slug = cwd.slice(cwd.lastIndexOf("/") + 1);
    projects[cwd] = slug;
    const folder = join(store, "tmp", slug);
    mkdirSync(join(folder, "chats"), { recursive: true });
    writeFileSync(join(folder, ".project_root"), cwd);
    const at = when(i);
    const minute = at.toISOString().slice(0, 17);
    const id = randomUUID();
    const own = (line: string) => line.replaceAll("2026-12-03T08:11:", minute);
    let body = `${
      own(text).replaceAll(fixtureId, id).replaceAll("/home/user/project", cwd)
        .replace(/Fake title \w+/, `Refactor step ${i} of the parser module`)
    }`;
    while (body.length < size) {
      const fresh = new Map(messageIds.map((m) => [m, randomUUID()]));
      body += messages.map((l) =>
        own(l).replace(/^\{"id":"([^"]+)"/, (_, m: string) => `{"id":"${fresh.get(m)}"`)
      )
        .join("\n") + "\n";
    }
    const path = join(
      folder,
      "chats",
      `session-${minute.slice(0, 16).replace(":", "-")}-${id.slice(0, 8)}.jsonl`,
    );
    writeFileSync(path, body);
    utimesSync(path, at, at);
    bytes += statSync(path).size;
  }
  mkdirSync(store, { recursive: true });
  writeFileSync(join(store, "projects.json"), JSON.stringify({ projects }, null, 2));
  return bytes;
}

type Row = Record<string, string | number | null>;

/** An INSERT of `row`'s columns into `table`. */
function inserter(db: DatabaseSync, table: string, row: Row): (values: Row) => void {
  const names = Object.keys(row);
  const statement = db.prepare(
    `INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${
      names.map(() => "?").join(", ")
    })`,
  );
  return (values) => statement.run(...names.map((n) => values[n] ?? null));
}

/**
 * OpenCode 1.18.33's one-shot session (its session row, reasoning and answer) under each session's own id, date,
 * project and title, in one `opencode.db` copied from the capture (its migrations and `global` project) with the
 * captured sessions removed; its messages and parts repeated under fresh ids to the session's size. The
 * home is the data folder, holding `opencode.db`.
 */
function opencodeSessions(home: string, sessions: { size: number; i: number }[]): number {
  mkdirSync(home, { recursive: true });
  const database = join(home, "opencode.db");
  copyFileSync(fixture("opencode/1.18.33/tools-subagent.opencode.db"), database);
  const db = new DatabaseSync(database);
  let bytes = 0;
  try {
    const session = db.prepare(
      "SELECT * FROM session WHERE parent_id IS NULL ORDER BY time_created LIMIT 1",
    ).get() as Row;
    const messages = db.prepare("SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id")
      .all(String(session.id)) as Row[];
    const parts = db.prepare("SELECT * FROM part WHERE session_id = ? ORDER BY id").all(
      String(session.id),
    ) as Row[];
    // The captured sessions go (their messages, parts and todos by cascade), and the events that record them.
    db.exec("DELETE FROM session; DELETE FROM event; DELETE FROM event_sequence");
    const insertSession = inserter(db, "session", session);
    const insertMessage = inserter(db, "message", messages[0]!);
    const insertPart = inserter(db, "part", parts[0]!);
    const touch = db.prepare("UPDATE session SET time_updated = ? WHERE id = ?");
    db.exec("BEGIN");
    for (const { size, i } of sessions) {
      const at = when(i).getTime();
      const cwd = project(i);
      const id = openCodeId("ses", at);
      const own = (text: string) => text.replaceAll("/home/user/project", cwd);
      const ids = new RowIds();
      insertSession({
        ...session,
        id,
        slug: `parser-step-${i}`,
        directory: cwd,
        path: cwd.slice(1),
        title: `Refactor step ${i} of the parser module`,
        time_created: at,
        time_updated: at,
      });
      let written = 0;
      let last = at;
      for (let turn = 0; written < size; turn++) {
        const fresh = new Map(messages.map((m) => [String(m.id), ids.next("msg", at + turn * 10_000)]));
        const renamed = (text: string) =>
          [...fresh].reduce((t, [old, now]) => t.replaceAll(old, now), own(text));
        for (const [k, message] of messages.entries()) {
          last = at + turn * 10_000 + k * 1000;
          insertMessage({
            ...message,
            id: fresh.get(String(message.id))!,
            session_id: id,
            time_created: last,
            time_updated: last,
            data: renamed(String(message.data)),
          });
        }
        for (const part of parts) {
          const data = turn && JSON.parse(String(part.data)).type === "text"
            ? JSON.stringify({ type: "text", text: "The quick brown fox re-runs the suite. ".repeat(40) })
            : renamed(String(part.data));
          insertPart({
            ...part,
            id: ids.next("prt", at + turn * 10_000),
            message_id: fresh.get(String(part.message_id))!,
            session_id: id,
            time_created: last,
            time_updated: last,
            data,
          });
          written += data.length;
        }
      }
      touch.run(last, id);
      bytes += written;
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  return bytes;
}

/**
 * Copilot CLI 1.0.102's one-shot session (its start, model, prompt, system message, answer and shutdown) in a
 * folder of its own per session (`session-state/<uuid>/`) under each session's own id, date and project, its
 * prompt and answer repeated under fresh event ids (each the parent of the next) to the session's size, with the
 * `workspace.yaml` that names it and gives its project, as the binary writes them.
 */
function copilotSessions(home: string, sessions: { size: number; i: number }[]): number {
  const folder = fixture("copilot-cli/1.0.102/exec/session-state/1e94808d-cfc1-45a3-abed-f9c2a23ed838");
  const fixtureId = "1e94808d-cfc1-45a3-abed-f9c2a23ed838";
  const text = readFileSync(join(folder, "events.jsonl"), "utf8");
  const turn = text.split("\n").filter((l) => /^\{"type":"(user|assistant)\.message"/.test(l));
  let bytes = 0;
  for (const { size, i } of sessions) {
    const at = when(i);
    const minute = at.toISOString().slice(0, 17);
    const id = randomUUID();
    const cwd = project(i);
    const own = (line: string) =>
      line.replaceAll("2026-12-03T13:38:", minute).replaceAll(fixtureId, id).replaceAll(
        "/home/user/project",
        cwd,
      );
    const events = own(text).split("\n").filter(Boolean);
    const shutdown = events.pop()!;
    let parent = (JSON.parse(events.at(-1)!) as { id: string }).id;
    let body = events.join("\n") + "\n";
    while (body.length < size) {
      for (const line of turn) {
        const event = { ...(JSON.parse(own(line)) as object), id: randomUUID(), parentId: parent };
        parent = event.id;
        body += `${JSON.stringify(event)}\n`;
      }
    }
    body += `${JSON.stringify({ ...(JSON.parse(shutdown) as object), parentId: parent })}\n`;
    const state = join(home, "session-state", id);
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, "events.jsonl"), body);
    const stamp = at.toISOString();
    writeFileSync(
      join(state, "workspace.yaml"),
      `id: ${id}\ncwd: ${cwd}\nclient_name: github/cli\nname: Refactor step ${i} of the parser module\n` +
        `user_named: false\nsummary_count: 0\nfork_count: 0\ncreated_at: ${stamp}\nupdated_at: ${stamp}\n`,
    );
    bytes += body.length;
  }
  return bytes;
}

/**
 * Pi 0.73.1's one-shot session with tools (reasoning, a call of each of bash, read, edit and write, an answer)
 * under each session's own id, time and project, named by a `session_info` entry as Pi's /name names it; its
 * entries after the first prompt repeated under fresh entry ids, each repeat a child of the last, to the
 * session's size. One file per session in its project's folder of the agent folder's `sessions/`.
 */
function piSessions(home: string, sessions: { size: number; i: number }[]): number {
  const entries = readFileSync(fixture("pi/0.73.1/exec-tools.jsonl"), "utf8").split("\n").filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown> & { message?: Record<string, unknown> });
  const [header, ...tree] = entries;
  const repeated = tree.slice(tree.findIndex((e) => e.message?.role === "user") + 1);
  let bytes = 0;
  for (const { size, i } of sessions) {
    const at = when(i).getTime();
    const cwd = project(i);
    const id = newPiSessionId(new Date(at));
    let written = 0;
    let parentId: unknown = null;
    let n = 0;
    /** An entry under a fresh id, a child of the one before, timed a second after it. */
    const next = (entry: Record<string, unknown> & { message?: Record<string, unknown> }) => {
      const time = at + n * 1000;
      const own = {
        ...entry,
        id: (n++).toString(16).padStart(8, "0"),
        parentId,
        timestamp: new Date(time).toISOString(),
        ...(entry.message ? { message: { ...entry.message, timestamp: time } } : {}),
      };
      parentId = own.id;
      const line = JSON.stringify(own).replaceAll("/home/user/project", cwd);
      written += line.length + 1;
      return line;
    };
    const lines = [JSON.stringify({ ...header, id, timestamp: new Date(at).toISOString(), cwd })];
    lines.push(...tree.map(next));
    while (written < size) lines.push(...repeated.map(next));
    lines.push(next({ type: "session_info", name: `Refactor step ${i} of the parser module` }));
    const folder = join(home, "sessions", projectFolderName(cwd));
    mkdirSync(folder, { recursive: true });
    const path = join(folder, sessionFileName(new Date(at).toISOString(), id));
    writeFileSync(path, `${lines.join("\n")}\n`);
    utimesSync(path, new Date(at), new Date(at));
    bytes += written;
  }
  return bytes;
}
