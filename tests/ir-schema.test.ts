/**
 * The IR is checked: what every reader produces from every session the real harnesses wrote (every captured
 * fixture of every harness and version: files, snapshots, transcripts, and each session of each state.db) is a
 * valid `Session` of the zod IR in lib/ir/schema.ts, with no key the IR does not describe. A failure names
 * the fixture and the zod issue.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { z } from "zod";
import { Session } from "../lib/ir/schema.ts";
import type { HarnessName } from "../lib/harnesses/registry.ts";
import { BUILTIN_HARNESSES } from "../lib/harnesses/registry.ts";
import { tempDir } from "./helpers/tmp.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "fixtures");

/**
 * One session a reader accepts: `path` is what the reader is given, `label` names the fixture; `line` is the
 * one line of a multi-session export file that holds it (the reader takes one exported session per file).
 */
interface Readable {
  harness: HarnessName;
  path: string;
  label: string;
  line?: number;
}

/**
 * Files a capture leaves beside the sessions that are not sessions: notes, manifests, the requests the fake
 * model server received, Codex `threads` rows and table schema, Hermes rows, runs, `sessions list` output and
 * the gateway's session index, Claude Code bucket observations and subagent metadata, Gemini CLI's project
 * registry (`projects.json`, a second one as `<scenario>.projects.json`), prompt history (`<scenario>.logs.json`)
 * and `/chat save` checkpoints (`<scenario>.checkpoint-<tag>.json`: the raw API history, not session records),
 * OpenCode's `session list --format json` output (`<scenario>.list.json`), what Copilot CLI keeps beside a
 * session's events (`workspace.yaml`, `checkpoints/`, `rewind-file-snapshots/`, its `session.db` as a JSON dump,
 * the lock a killed run left) with each scenario's `session-store.json` index dump, `session-list.txt` and
 * `requests.jsonl`, and the JSON lines `copilot -p --output-format json` printed (`prompt-output/`), and Pi's
 * session picker as `pi -r` drew it (`<scenario>.resume-list.txt`).
 */
const CAPTURE_ARTIFACTS = [
  /\.md$/,
  /\/manifest\.json$/,
  /\/capture\.json$/,
  /\/schema\.json$/,
  /\/threads\.schema\.json$/,
  /\/buckets\.observed\.json$/,
  /\.requests\.jsonl$/,
  /\.threads\.json$/,
  /\.rows\.json$/,
  /\.runs\.json$/,
  /\.results\.json$/,
  /\.list\.txt$/,
  /\.list\.json$/,
  /\.list-sessions\.txt$/,
  /\.resume-list\.txt$/,
  /[/.]projects\.json$/,
  /\.logs\.json$/,
  /\.checkpoint-[^/]+\.json$/,
  /\.meta\.json$/,
  /\/sessions\/sessions\.json$/,
  /\/copilot-cli\/[^/]+\/[^/]+\/(requests\.jsonl|session-list\.txt|session-store\.json)$/,
  /\/session-state\/[^/]+\/(workspace\.yaml|session\.db\.json|inuse\.\d+\.lock|rewind-file-snapshots\/[^/]+\.json)$/,
  /\/copilot-cli\/[^/]+\/prompt-output\/[^/]+\.jsonl$/,
];

/** The sessions a harness's reader accepts among a fixture folder's files. */
const SESSION_FILES: Record<HarnessName, RegExp> = {
  // Main transcripts, the other sessions a resume or rewind left in the bucket, and subagent transcripts.
  "claude-code": /\.jsonl$/,
  // Rollouts.
  codex: /\.jsonl$/,
  // `sessions export` lines, snapshots (`sessions/session_<id>.json`) and legacy gateway transcripts.
  hermes: /\.export\.jsonl$|\/sessions\/session_[^/]+\.json$|\/sessions\/[^/]+\.jsonl$/,
  // Session logs, the subagent logs captured beside them (`<scenario>.subagents/<id>.jsonl`), and legacy
  // whole-session files (`<scenario>.json`, no other dot in the name).
  "gemini-cli": /\.jsonl$|\/[^/.]+\.json$/,
  // Captured databases (`<scenario>.opencode.db`), each of their sessions read on its own as `<db>#<id>`, and
  // what `opencode export` printed (`<scenario>.export.json`, and `<scenario>.export.<which>.json` for the other
  // sessions of that scenario: a fork's source, a subagent's).
  opencode: /\.opencode\.db$|\.export(\.[\w-]+)?\.json$/,
  // Each session folder's events (`<scenario>/session-state/<uuid>/events.jsonl`), subagents' in the same file.
  "copilot-cli": /\/session-state\/[^/]+\/events\.jsonl$/,
  // Session files, a fork's source beside its scenario's (`<scenario>.2.jsonl`).
  pi: /\.jsonl$/,
};

/** The harnesses with captured fixtures: every folder of fixtures/ (checked below). */
const HARNESSES = Object.keys(SESSION_FILES) as HarnessName[];
const STAGED = Object.keys(
  JSON.parse(readFileSync(join(ROOT, "acceptance/harness-versions-staged.json"), "utf8")) as object,
);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  }).sort();
}

/** Every session id a captured database holds (its `table` of sessions), each read on its own as `<db>#<id>`. */
function databaseSessions(path: string, table = "sessions"): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(`SELECT id FROM ${table} ORDER BY id`).all().map((row) => String(row.id));
  } finally {
    db.close();
  }
}

const exportLines = (path: string) => readFileSync(path, "utf8").split("\n").filter((l) => l.trim());

/** The file a reader is given: the fixture itself, or the one export line written to a file of its own. */
function readerInput({ path, line }: Readable): string {
  if (line === undefined) return path;
  const alone = join(tempDir("sb-ir-export-"), basename(path));
  writeFileSync(alone, `${exportLines(path)[line]}\n`);
  return alone;
}

function classifyFixtures(): { readable: Readable[]; unclassified: string[] } {
  const readable: Readable[] = [];
  const unclassified: string[] = [];
  for (const name of HARNESSES) {
    for (const path of filesUnder(join(FIXTURES, name))) {
      const label = relative(ROOT, path);
      if (CAPTURE_ARTIFACTS.some((re) => re.test(path))) continue;
      if (name === "hermes" && path.endsWith(".state.db")) {
        for (const id of databaseSessions(path)) {
          readable.push({ harness: name, path: `${path}#${id}`, label: `${label}#${id}` });
        }
      } else if (name === "opencode" && path.endsWith(".opencode.db")) {
        for (const id of databaseSessions(path, "session")) {
          readable.push({ harness: name, path: `${path}#${id}`, label: `${label}#${id}` });
        }
      } else if (name === "hermes" && path.endsWith(".export.jsonl") && exportLines(path).length > 1) {
        exportLines(path).forEach((_, i) =>
          readable.push({ harness: name, path, label: `${label}:${i + 1}`, line: i })
        );
      } else if (SESSION_FILES[name].test(path)) {
        readable.push({ harness: name, path, label });
      } else {
        unclassified.push(label);
      }
    }
  }
  return { readable, unclassified };
}

const { readable, unclassified } = classifyFixtures();

test("every captured fixture is a session a reader accepts or a known capture artifact", () => {
  assert.deepEqual(unclassified, [], "a new kind of fixture: read it below or name it a capture artifact");
  // Captures of a harness staged for support (acceptance/harness-versions-staged.json) wait for its reader.
  assert.deepEqual(
    readdirSync(FIXTURES).sort(),
    [...HARNESSES, ...STAGED].sort(),
    "a harness without a reader here, or captures of one neither built in nor staged",
  );
  // Every harness version's folder contributes sessions.
  const versions = (name: HarnessName) => readdirSync(join(FIXTURES, name)).sort();
  for (const name of HARNESSES) {
    const covered = new Set(readable.filter((r) => r.harness === name).map((r) => r.label.split("/")[2]));
    assert.deepEqual([...covered].sort(), versions(name), name);
  }
});

for (const fixture of readable) {
  const { harness: name, label } = fixture;
  test(`${label} reads into a valid IR session`, async () => {
    const session = await BUILTIN_HARNESSES[name].store.read(readerInput(fixture));
    const parsed = Session.safeParse(session);
    if (!parsed.success) assert.fail(`${label}: ${z.prettifyError(parsed.error)}`);
    // Parsing drops keys the IR does not describe: what is left must be everything the reader produced.
    assert.deepEqual(parsed.data, session, `${label}: the reader produced keys the IR does not describe`);
  });
}
