/**
 * Issue 33: a compacted session written into Claude Code, Codex, Hermes or Pi keeps the history before its
 * compaction on disk, under the target's own compaction record, written as the real binary writes its own
 * (compared field by field with the captured fixtures, read as plain data: our readers take no part there);
 * and a hop back, read by our own reader, gives the compacted history and the summary again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry, findHarness } from "../lib/harnesses/registry.ts";
import { loadSession } from "../lib/pipeline/load.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { homeFlags, runCliJson } from "./helpers/cli.ts";
import { jsonLines } from "./helpers/fixtures.ts";
import { STREAM_FROM_VARIABLE } from "../lib/io/jsonl.ts";
import { tempDir } from "./helpers/tmp.ts";
import type { HarnessModule } from "./helpers/harness-material.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { SUMMARY_END, SUMMARY_PREFIX } from "../lib/harnesses/hermes/summary-words.ts";

type Json = Record<string, unknown>;

const fixture = (harness: string, version: string, name: string) =>
  join(import.meta.dirname!, "..", "fixtures", harness, version, name);

/** A real compaction of another harness, and words that stand only in its history, summary and live thread. */
const SOURCES = {
  claude: {
    path: fixture("claude-code", "2.1.332", "compacted.jsonl"),
    history: ["Compact fixture, turn one before compaction.", "ASSISTANT-REPLY: r-dad5d986"],
    summary: "COMPACT-SUMMARY: s-52fe4e60",
    live: ["Compact fixture, first turn after compaction.", "ASSISTANT-REPLY: r-521e185c"],
  },
  codex: {
    path: fixture("codex", "0.171.0", "compacted.jsonl"),
    history: ["ASSISTANT-REPLY: turn 1 noted, checksum f2cafb03."],
    summary: "COMPACT-SUMMARY: 2 earlier turns, checksum 865bcabe.",
    live: ["Second message about harbour tides."],
  },
  pi: {
    path: fixture("pi", "0.73.1", "compacted.jsonl"),
    history: ["Please say hello to the reviewer.", "ASSISTANT-REPLY: acknowledged, turn 1, digest 3ab3cc6d."],
    summary: "SUMMARY: digest 572a8b1c, the earlier turns in brief.",
    live: ["And one about early trains.", "ASSISTANT-REPLY: acknowledged, turn 2, digest df09301b."],
  },
};
type Source = (typeof SOURCES)[keyof typeof SOURCES];

const text = (messages: Message[]) =>
  messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []))).join("\n");

/** The source handed into `harness` in private homes: the written files and the session read back. */
async function handedInto(
  harness: string,
  source: Source,
  version?: string,
  dir = tempDir(),
  extraEnv: Record<string, string> = {},
): Promise<{ files: string[]; back: Session; report: Json }> {
  const home = join(dir, "home");
  mkdirSync(join(dir, "project"));
  const cwd = join(dir, "project");
  const { material } = (await import(`./helpers/harnesses/${harness}.ts`)) as HarnessModule;
  material.prepareHome(home);
  const given = { [harness]: home };
  const variable = findHarness(builtinRegistry, harness).store.versionVariable;
  const env = {
    SESSION_BRIDGE_HOME: join(dir, "bridge"),
    ...(version && variable ? { [variable]: version } : {}),
    ...extraEnv,
  };
  const r = await runCliJson([
    "handoff",
    source.path,
    "--to",
    harness,
    "--cwd",
    cwd,
    ...homeFlags(given, dir),
  ], env);
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  const homes = Object.fromEntries(
    builtinRegistry.harnesses.map((h) => [h.name, given[h.name] ?? join(dir, "none")]),
  );
  const { session } = await loadSession({
    ref: id,
    from: harness,
    registry: builtinRegistry,
    homes,
    bridgeHome: env.SESSION_BRIDGE_HOME,
  });
  return { files: r.json.files as string[], back: session, report: r.json.report as Json };
}

const entry = (report: Json, code: string) =>
  (report.entries as { code: string; detail: string }[]).find((e) => e.code === code)!;

/** The hop back: our reader finds the compacted history and the summary where the source had them. */
function assertReadBack(back: Session, source: Source) {
  const compacted = back.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  for (const words of source.history) assert.ok(text(compacted).includes(words), `history lost: ${words}`);
  const summary = back.messages.find((m) => m.kind === "summary");
  assert.ok(summary && text([summary]).includes(source.summary), "the live thread holds the summary");
  const after = back.messages.slice(back.messages.indexOf(summary));
  for (const words of source.live) assert.ok(text(after).includes(words), `live thread lost: ${words}`);
  for (const words of source.history) {
    assert.ok(!text(back.messages).includes(words), `history is live: ${words}`);
  }
}

/** Each field our record has, equal to the real record's (ids and times only shaped alike). */
function assertSameFields(ours: Json, real: Json, skip: string[], label: string) {
  for (const [key, value] of Object.entries(ours)) {
    if (skip.includes(key)) {
      assert.equal(typeof value, typeof real[key], `${label}: ${key} is of the real record's type`);
      continue;
    }
    assert.deepEqual(value, real[key], `${label}: ${key}`);
  }
}

// Claude Code --------------------------------------------------------------------------------------------------

for (const version of ["2.1.328", "2.1.332"]) {
  test(`golden: a compaction handed into Claude Code is written as Claude Code ${version} writes its own`, async () => {
    const real = jsonLines(fixture("claude-code", version, "compacted.jsonl"));
    const realBoundary = real.find((r) => r.subtype === "compact_boundary")!;
    const realSummary = real.find((r) => r.isCompactSummary === true)!;
    const { files } = await handedInto("claude-code", SOURCES.pi, version);
    const ours = jsonLines(files[0]!);
    const boundary = ours.find((r) => r.subtype === "compact_boundary")!;
    const summary = ours.find((r) => r.isCompactSummary === true)!;
    const ids = ["uuid", "parentUuid", "logicalParentUuid", "timestamp", "sessionId", "cwd"];
    assertSameFields(
      { ...boundary, compactMetadata: undefined },
      { ...realBoundary, compactMetadata: undefined },
      ids,
      "boundary",
    );
    assert.equal((boundary.compactMetadata as Json).trigger, (realBoundary.compactMetadata as Json).trigger);
    assert.equal(typeof (boundary.compactMetadata as Json).preTokens, "number");
    assertSameFields(
      { ...summary, message: undefined },
      { ...realSummary, message: undefined },
      ids,
      "summary",
    );
    assert.equal(typeof (summary.message as Json).content, typeof (realSummary.message as Json).content);
    // The boundary starts a new root and points back at the history's last record; the summary hangs from it.
    const at = ours.indexOf(boundary);
    assert.equal(boundary.parentUuid, null);
    assert.equal(boundary.logicalParentUuid, ours[at - 1]!.uuid);
    assert.ok(ours.slice(0, at).some((r) => JSON.stringify(r).includes(SOURCES.pi.history[0]!)));
  });
}

test("a hop back from Claude Code gives the compacted history and the summary again", async () => {
  const { back } = await handedInto("claude-code", SOURCES.pi);
  assertReadBack(back, SOURCES.pi);
});

// Codex ----------------------------------------------------------------------------------------------------------

const contentText = (item: Json) => (item.content as Json[]).map((c) => c.text).join("");

for (const version of ["0.169.0", "0.171.0"]) {
  test(`golden: a compaction handed into Codex is written as Codex ${version} writes its own`, async () => {
    const real = jsonLines(fixture("codex", version, "compacted.jsonl")).find((l) => l.type === "compacted")!;
    const { files } = await handedInto("codex", SOURCES.claude, version);
    const lines = jsonLines(files[0]!);
    const ours = lines.find((l) => l.type === "compacted")!;
    assertSameFields({ ...ours, payload: undefined }, { ...real, payload: undefined }, [
      "timestamp",
      "ordinal",
    ], "line");
    const [payload, realPayload] = [ours.payload as Json, real.payload as Json];
    assert.deepEqual(
      Object.keys(payload).filter((k) => !(k in realPayload)),
      [],
      "no field Codex does not write",
    );
    // The summary is the last item of the replacement history, a user message whose words are the `message`.
    const [items, realItems] = [
      payload.replacement_history as Json[],
      realPayload.replacement_history as Json[],
    ];
    const [summary, realSummary] = [items.at(-1)!, realItems.at(-1)!];
    for (const key of ["type", "role"]) assert.equal(summary[key], realSummary[key], key);
    assert.deepEqual(
      (summary.content as Json[]).map((c) => c.type),
      (realSummary.content as Json[]).map((c) => c.type),
    );
    assert.equal(contentText(realSummary), realPayload.message, "the real summary item holds the message");
    assert.equal(contentText(summary), payload.message);
    assert.ok((payload.message as string).includes(SOURCES.claude.summary));
    // The history's turns stand before the line, finished, as Codex's own turns do.
    const before = lines.slice(0, lines.indexOf(ours)).map((l) => JSON.stringify(l)).join("\n");
    for (const words of SOURCES.claude.history) {
      assert.ok(before.includes(words), `history not on disk: ${words}`);
    }
    assert.equal((lines[lines.indexOf(ours) - 1]!.payload as Json).type, "task_complete");
  });
}

test("a hop back from Codex gives the compacted history and the summary again", async () => {
  const { back } = await handedInto("codex", SOURCES.claude);
  assertReadBack(back, SOURCES.claude);
});

// Pi ---------------------------------------------------------------------------------------------------------------

test("golden: a compaction handed into Pi is written as Pi 0.73.1 writes its own", async () => {
  const realLines = jsonLines(fixture("pi", "0.73.1", "compacted.jsonl"));
  const real = realLines.find((e) => e.type === "compaction")!;
  const { files } = await handedInto("pi", SOURCES.claude);
  const entries = jsonLines(files[0]!);
  const ours = entries.find((e) => e.type === "compaction")!;
  assertSameFields(
    ours,
    real,
    ["id", "parentId", "timestamp", "summary", "firstKeptEntryId", "tokensBefore"],
    "entry",
  );
  assert.ok((ours.summary as string).includes(SOURCES.claude.summary));
  // On the branch after the history, as Pi's own; Pi sends the summary, then the entries from firstKeptEntryId
  // that stand before the compaction (none here: the live thread opens with the summary), then those after it.
  const at = entries.indexOf(ours);
  assert.equal(ours.parentId, entries[at - 1]!.id);
  assert.equal(realLines.find((e) => e.id === real.firstKeptEntryId)?.type, "message");
  assert.equal(ours.firstKeptEntryId, entries[at + 1]!.id);
  const before = entries.slice(0, at).map((e) => JSON.stringify(e)).join("\n");
  for (const words of SOURCES.claude.history) {
    assert.ok(before.includes(words), `history not on disk: ${words}`);
  }
});

test("a hop back from Pi gives the compacted history and the summary again", async () => {
  const { back } = await handedInto("pi", SOURCES.claude);
  assertReadBack(back, SOURCES.claude);
});

test("a compacted session whose live thread does not open with its summary keeps today's form: history left out, and the report says so", async () => {
  // Codex keeps the user's messages ahead of its summary: written behind a target's summary they would move.
  const { files, report } = await handedInto("claude-code", SOURCES.codex);
  const records = jsonLines(files[0]!);
  assert.equal(records.some((r) => r.subtype === "compact_boundary"), false);
  assert.ok(!JSON.stringify(records).includes(SOURCES.codex.history[0]!));
  assert.match(entry(report, "compacted-history").detail, /summarized, not replayed/);
});

test("the report of a compacted session kept on disk says so", async () => {
  const { report } = await handedInto("claude-code", SOURCES.pi);
  assert.match(entry(report, "compacted-history").detail, /kept on disk .* and summarized for the model/);
});

// Hermes -----------------------------------------------------------------------------------------------------------

test("golden: a compaction handed into Hermes is stored as Hermes 0.19.0 compresses a session in place", async () => {
  const real =
    (JSON.parse(readFileSync(fixture("hermes", "0.19.0", "compressed-inplace.rows.json"), "utf8")) as {
      messages: Json[];
    }).messages;
  const dir = tempDir();
  const { back } = await handedInto("hermes", SOURCES.claude, undefined, dir);
  const ours = query(
    join(dir, "home", "state.db"),
    "SELECT * FROM messages WHERE session_id = ? ORDER BY id",
    back.meta.id,
  );
  // The rows it replaced first, set aside as Hermes sets its own aside, then the live rows.
  const marks = (rows: Json[]) => rows.map((r) => `${r.active}/${r.compacted}`);
  const runs = (rows: Json[]) => marks(rows).filter((m, i, all) => m !== all[i - 1]);
  assert.deepEqual(runs(ours), runs(real));
  assert.deepEqual(runs(ours), ["0/1", "1/0"]);
  const setAside = ours.filter((r) => r.compacted === 1).map((r) => r.content).join("\n");
  for (const words of SOURCES.claude.history) {
    assert.ok(setAside.includes(words), `history not on disk: ${words}`);
  }
  // The summary in Hermes's own words: its prefix, the summary, its end marker.
  const summary = ours.find((r) => r.active === 1 && String(r.content).includes(SOURCES.claude.summary))!;
  const realSummary = real.find((r) => r.active === 1 && String(r.content).includes("[CONTEXT COMPACTION"))!;
  const realText = String(realSummary.content);
  assert.ok(realText.includes(`${SUMMARY_PREFIX}\n`), "Hermes's prefix, as the binary wrote it");
  assert.ok(realText.endsWith(SUMMARY_END), "Hermes's end marker, as the binary wrote it");
  assert.ok(String(summary.content).startsWith(`${SUMMARY_PREFIX}\n`));
  assert.ok(String(summary.content).endsWith(`\n\n${SUMMARY_END}`));
  assert.equal(summary.role, "user");
});

test("a hop back from Hermes gives the compacted history and the summary again", async () => {
  const { back } = await handedInto("hermes", SOURCES.pi);
  assertReadBack(back, SOURCES.pi);
});

test("a compacted session handed into a Hermes that stores no compacted rows leaves its history out and the report says so", async () => {
  const dir = tempDir();
  const home = join(dir, "hermes");
  seedHermesHome(home, "0.14.0", "text-turns");
  mkdirSync(join(dir, "project"));
  const r = await runCliJson(
    [
      "handoff",
      SOURCES.claude.path,
      "--to",
      "hermes",
      "--cwd",
      join(dir, "project"),
      ...homeFlags({ hermes: home }, dir),
    ],
    { SESSION_BRIDGE_HOME: join(dir, "bridge") },
  );
  assert.equal(r.code, 0, r.stderr);
  const dropped = entry(r.json.report as Json, "compacted-rows-dropped");
  assert.ok(dropped && dropped.detail.includes("history before compaction is left out"));
  const id = (r.json.target as { id: string }).id;
  const rows = query(join(home, "state.db"), "SELECT content FROM messages WHERE session_id = ?", id);
  assert.ok(!rows.some((row) => String(row.content).includes(SOURCES.claude.history[0]!)));
  assert.ok(rows.some((row) => String(row.content).includes(SOURCES.claude.summary)));
});

for (
  const [harness, source] of [["claude-code", SOURCES.pi], ["codex", SOURCES.claude], [
    "hermes",
    SOURCES.claude,
  ], [
    "pi",
    SOURCES.claude,
  ]] as const
) {
  test(`a compacted source read as a stream is written into ${harness} with its history kept the same way`, async () => {
    const { back } = await handedInto(harness, source, undefined, tempDir(), { [STREAM_FROM_VARIABLE]: "0" });
    assertReadBack(back, source);
  });
}
