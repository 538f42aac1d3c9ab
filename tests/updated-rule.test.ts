/**
 * One UPDATED rule for every harness (lib/harnesses/updated.ts): a session is dated by its last message as the
 * session records it, not by its file's time or a row its harness keeps beside it, so `list`, the picker and
 * `latest` order every store alike; and a handoff stamps its handshake with the time of the handoff, so the copy
 * just made is the newest session whatever harness it went into. Expectations are written by hand from the
 * captured fixture (its last message, read off the file) and from the times the tests set.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { builtinCoverage, expectedFor, preparedHomes } from "./helpers/harness-material.ts";
import { runCli } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { hermesFixture } from "./helpers/hermes.ts";
import { listHermes } from "../lib/harnesses/hermes/list.ts";
import { tempDir } from "./helpers/tmp.ts";
import { listClaude } from "../lib/harnesses/claude-code/locate.ts";
import { lastLineWhere } from "../lib/io/last-line.ts";

const COVERED = await builtinCoverage();

/**
 * Captured by Claude Code 2.1.328: its last message is the assistant record of 2026-11-29T21:02:10.633Z (the
 * `last-prompt`, `atis-latch` and `cost-state` records after it carry no time).
 */
const SOURCE = claudeFixture("thinking-tool-use");
const SOURCE_LAST_MESSAGE = "2026-11-29T21:02:10.633Z";
/** Another capture, handed off first: a session that was "just in" before the one under test. */
const EARLIER = claudeFixture("plain-text");

/**
 * The copy's last message, as each writer records the source's: at its time, but for Codex, whose writer puts
 * the `item_completed` event of the call before the last reply, on the source's time, and the reply a
 * millisecond after it (records never share a time).
 */
const COPY_LAST_MESSAGE: Record<string, string> = {
  "claude-code": SOURCE_LAST_MESSAGE,
  codex: "2026-11-29T21:02:10.634Z",
  hermes: SOURCE_LAST_MESSAGE,
  "gemini-cli": SOURCE_LAST_MESSAGE,
  opencode: SOURCE_LAST_MESSAGE,
  "copilot-cli": SOURCE_LAST_MESSAGE,
  pi: SOURCE_LAST_MESSAGE,
};

/** A time after everything above, which no message holds: what a store's own stamps are set to. */
const LATER = new Date("2031-05-05T05:05:05.000Z");

interface Listed {
  harness: string;
  id: string;
  updatedAt?: string;
}

/** A private home for every harness, made ready to take a handoff, and the CLI run with them. */
function world() {
  const root = realpathSync(tempDir());
  const { homes, flags } = preparedHomes(COVERED, join(root, "homes"));
  const cwd = join(root, "project");
  mkdirSync(cwd);
  const env = { HOME: join(root, "user"), SESSION_BRIDGE_HOME: join(root, "bridge") };
  const cli = async (...args: string[]) => {
    const r = await runCli([...args, ...flags, "--json"], env);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  const handoff = async (source: string, to: string, ...extra: string[]) => {
    const out = await cli("handoff", source, "--to", to, "--cwd", cwd, ...extra);
    return (out.target as { id: string }).id;
  };
  const list = async (...args: string[]) => (await cli("list", ...args)).sessions as Listed[];
  return { homes, cli, handoff, list };
}

for (const { harness } of COVERED) {
  test(`after a handoff into ${harness.name}, the copy is first in list and is latest, from it too`, async () => {
    const { cli, handoff, list } = world();
    const isNewest = async (copy: string) => {
      const [first] = await list();
      assert.deepEqual([first?.harness, first?.id], [harness.name, copy]);
      const latest = (await cli("inspect", "latest")).session as { id: string };
      assert.equal(latest.id, copy);
      const mine = (await cli("inspect", `${harness.name}~1`)).session as { id: string };
      assert.equal(mine.id, copy);
    };
    // A session handed off a moment before, elsewhere: the copy made after it is the one just in.
    await handoff(EARLIER, "claude-code");
    const copy = await handoff(SOURCE, harness.name);
    await isNewest(copy);
    // Another session just in, then a handoff of that copy within its harness (a copy of its own records, for
    // most): the newest again, not dated after the copy's records.
    await handoff(EARLIER, "claude-code");
    await isNewest(await handoff(copy, harness.name));
  });
}

/**
 * What each store keeps beside a session's messages that says "updated" (besides the files' own times, set
 * for every harness): set to LATER, none of it may date the session.
 */
const STORE_STAMPS: Record<string, (home: string) => void> = {
  "claude-code": () => {},
  codex: (home) =>
    sql(join(home, "state_5.sqlite"), "UPDATE threads SET updated_at = ?, updated_at_ms = ?", 1),
  hermes: (home) => sql(join(home, "state.db"), "UPDATE sessions SET started_at = ?, ended_at = ?", 2),
  "gemini-cli": () => {},
  opencode: (home) => sql(join(home, "opencode.db"), "UPDATE session SET time_updated = ?", 3),
  "copilot-cli": () => {},
  pi: () => {},
};

/** `statement` run with LATER for each `?`: as seconds and milliseconds (1), seconds (2), milliseconds (3). */
function sql(database: string, statement: string, unit: 1 | 2 | 3) {
  const seconds = LATER.getTime() / 1000;
  const values = unit === 1
    ? [seconds, LATER.getTime()]
    : unit === 2
    ? [seconds, seconds]
    : [LATER.getTime()];
  const db = new DatabaseSync(database);
  try {
    db.prepare(statement).run(...values);
  } finally {
    db.close();
  }
}

/** Every file under `dir` modified at LATER. */
function touchAll(dir: string) {
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, entry);
    if (statSync(path).isFile()) utimesSync(path, LATER, LATER);
  }
}

for (const { harness } of COVERED) {
  test(`a session in ${harness.name} is dated by its last message, not by its files' or its rows' times`, async () => {
    const { homes, handoff, list } = world();
    // No handshake: the copy's last message is the source's own.
    const copy = await handoff(SOURCE, harness.name, "--no-handshake");
    const home = homes[harness.name]!;
    expectedFor(STORE_STAMPS, harness.name, "way to restamp its store")(home);
    touchAll(home);
    const row = (await list("--from", harness.name)).find((s) => s.id === copy);
    assert.equal(
      row?.updatedAt,
      expectedFor(COPY_LAST_MESSAGE, harness.name, "time of the copy's last message"),
    );
  });
}

test("a Codex rollout its index does not know is dated by its last message, as an indexed one", async () => {
  const { homes, handoff, list } = world();
  const copy = await handoff(SOURCE, "codex", "--no-handshake");
  const db = new DatabaseSync(join(homes.codex!, "state_5.sqlite"));
  try {
    db.prepare("DELETE FROM threads WHERE id = ?").run(copy);
  } finally {
    db.close();
  }
  touchAll(homes.codex!);
  const row = (await list("--from", "codex")).find((s) => s.id === copy);
  assert.equal(row?.updatedAt, COPY_LAST_MESSAGE.codex);
});

/** A Claude Code home holding one transcript of `lines`, modified at LATER; its path. */
function claudeTranscript(lines: readonly string[]): { home: string; path: string } {
  const home = tempDir();
  const dir = join(home, "projects", "-home-user-project");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "5f0c6a36-8a3e-4b53-9d4e-3b8f1c2a7d10.jsonl");
  writeFileSync(path, lines.map((l) => `${l}\n`).join(""));
  utimesSync(path, LATER, LATER);
  return { home, path };
}

const record = (fields: Record<string, unknown>) =>
  JSON.stringify({ cwd: "/home/user/project", sessionId: "5f0c6a36-8a3e-4b53-9d4e-3b8f1c2a7d10", ...fields });
const user = (timestamp: string, text = "hello") =>
  record({ type: "user", timestamp, message: { role: "user", content: text } });
const assistant = (timestamp: string, text: string) =>
  record({ type: "assistant", timestamp, message: { role: "assistant", content: [{ type: "text", text }] } });

test("a Claude Code transcript is dated by its last message, not by later records that are none", async () => {
  const { home } = claudeTranscript([
    user("2026-03-01T10:00:00.000Z"),
    assistant("2026-03-01T10:00:05.250Z", "hi"),
    // Records with times of their own that are no message, and records with none.
    record({ type: "attachment", timestamp: "2026-03-01T11:00:00.000Z", attachment: {} }),
    record({ type: "queue-operation", operation: "enqueue", timestamp: "2026-03-01T12:00:00.000Z" }),
    JSON.stringify({ type: "last-prompt", lastPrompt: "hello" }),
    JSON.stringify({ type: "custom-title", customTitle: "named", sessionId: "x" }),
  ]);
  const [row] = await listClaude(home);
  assert.equal(row?.updatedAt, "2026-03-01T10:00:05.250Z");
  assert.equal(row?.title, "named");
});

test("a Claude Code message's time written with an offset is listed in UTC, comparable with every store's", async () => {
  const { home } = claudeTranscript([user("2026-03-01T12:00:00+02:00")]);
  const [row] = await listClaude(home);
  assert.equal(row?.updatedAt, "2026-03-01T10:00:00.000Z");
});

test("a Claude Code transcript holding no timestamped message is dated by its file's time", async () => {
  const { home } = claudeTranscript([
    JSON.stringify({ type: "summary", summary: "old", leafUuid: "x" }),
    JSON.stringify({ type: "custom-title", customTitle: "named", sessionId: "x" }),
  ]);
  const [row] = await listClaude(home);
  assert.equal(row?.updatedAt, LATER.toISOString());
});

test("the last message of a 20 MB Claude Code transcript is found reading a bounded amount of its end", async () => {
  // 20 MB of turns, then a last reply of 1 MB (longer than any first window) and small records with no time.
  const turn = assistant("2026-03-01T09:00:00.000Z", "x".repeat(100 * 1024 - 200));
  const long = assistant("2026-03-01T10:30:00.125Z", "y".repeat(1024 * 1024));
  const { home, path } = claudeTranscript([
    user("2026-03-01T08:00:00.000Z", "first words"),
    ...Array.from({ length: 200 }, () => turn),
    long,
    JSON.stringify({ type: "last-prompt", lastPrompt: "first words" }),
    JSON.stringify({ type: "cost-state", cost: 1 }),
  ]);
  assert.ok(statSync(path).size > 20 * 1024 * 1024);
  const [row] = await listClaude(home);
  assert.equal(row?.updatedAt, "2026-03-01T10:30:00.125Z");
  assert.equal(row?.title, "first words");
  // What finding it reads: at most twice the last reply and the records after it, plus the first window.
  const { value, bytesRead } = lastLineWhere(path, (line) => line.includes("2026-03-01T10:30") || undefined);
  assert.equal(value, true);
  assert.ok(bytesRead <= 2 * (long.length + 100) + 16 * 1024, `${bytesRead} bytes read`);
});

test("a legacy Hermes transcript is dated by its last message (local time, as Hermes wrote it), not its file's", () => {
  const home = tempDir();
  mkdirSync(join(home, "sessions"));
  const path = join(home, "sessions", "20261129_210600_ffb99655.jsonl");
  copyFileSync(hermesFixture("0.14.0", "gateway-legacy/sessions/20261129_210600_ffb99655.jsonl"), path);
  utimesSync(path, LATER, LATER);
  const [row] = listHermes(home);
  // Its last line: an assistant reply at "2026-11-29T21:06:08.092894", the machine's local time.
  assert.equal(row?.updatedAt, new Date(2026, 10, 29, 21, 6, 8, 93).toISOString());
});
