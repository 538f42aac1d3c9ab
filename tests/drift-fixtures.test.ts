/**
 * `drift` must never cry wolf: every store a certified harness version writes is described by the embedded
 * schemas. Each fixture of every version of every harness (captured from the real binaries) is placed where
 * that harness keeps it, and the real `drift` command must report zero unknown shapes and no unreadable
 * session, over exactly the sessions placed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bucketName } from "../lib/harnesses/claude-code/bucket.ts";
import { runCliJson } from "./helpers/cli.ts";
import { type CodexVersion, makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";
import { material as geminiMaterial } from "./helpers/harnesses/gemini-cli.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const versions = (harness: string) => readdirSync(join(FIXTURES, harness)).sort();
const files = (dir: string, suffix: string) => readdirSync(dir).filter((f) => f.endsWith(suffix)).sort();

interface DriftJson {
  sessions: number;
  clean: boolean;
  drift: { where: string; problem: string }[];
  unreadable: { id: string; error: string }[];
}

/** Runs `session-bridge drift --from <harness>` on one home; names every finding in the failure message. */
async function assertNoDrift(
  harness: string,
  homeFlag: string,
  home: string,
  sessions: number | undefined,
  what: string,
): Promise<void> {
  const r = await runCliJson(["drift", "--from", harness, homeFlag, home]);
  const scan = r.json as unknown as DriftJson;
  const findings = [
    ...scan.drift.map((d) => `${d.where}: ${d.problem}`),
    ...scan.unreadable.map((u) => `${u.id} unreadable: ${u.error}`),
  ];
  assert.deepEqual(findings, [], `${what}: drift reported`);
  assert.equal(scan.clean, true, what);
  assert.equal(r.code, 0, `${what}: ${r.stderr}`);
  // A Hermes state.db holds as many sessions as the scenario made: at least one.
  if (sessions === undefined) assert.ok(scan.sessions > 0, `${what}: no session checked`);
  else assert.equal(scan.sessions, sessions, `${what}: sessions checked`);
}

/** A Claude fixture's session id: the `sessionId` its records carry. */
function claudeSessionId(path: string): string {
  const line = readFileSync(path, "utf8").split("\n").find((l) => l.includes('"sessionId"'));
  if (!line) throw new Error(`${path}: no sessionId`);
  return (JSON.parse(line) as { sessionId: string }).sessionId;
}

for (const version of versions("claude-code")) {
  test(`drift reports nothing on any session Claude Code ${version} wrote (every fixture)`, async () => {
    const dir = join(FIXTURES, "claude-code", version);
    const home = tempDir();
    let sessions = 0;
    // One project per fixture: each keeps its own bucket, its subagents and the other sessions beside it.
    for (const file of files(dir, ".jsonl").filter((f) => !f.endsWith(".requests.jsonl"))) {
      const name = file.slice(0, -".jsonl".length);
      const bucket = join(home, "projects", bucketName(`/home/user/${name}`, version));
      mkdirSync(bucket, { recursive: true });
      const id = claudeSessionId(join(dir, file));
      copyFileSync(join(dir, file), join(bucket, `${id}.jsonl`));
      sessions++;
      const side = join(dir, name);
      if (existsSync(join(side, "subagents"))) {
        cpSync(join(side, "subagents"), join(bucket, id, "subagents"), { recursive: true });
      }
      if (existsSync(join(side, "other-sessions"))) {
        for (const other of files(join(side, "other-sessions"), ".jsonl")) {
          copyFileSync(join(side, "other-sessions", other), join(bucket, other));
          sessions++;
        }
      }
    }
    assert.ok(sessions > 0, `no Claude Code ${version} fixtures`);
    await assertNoDrift("claude-code", "--claude-home", home, sessions, `Claude Code ${version}`);
  });
}

for (const version of versions("codex")) {
  test(`drift reports nothing on any thread Codex ${version} wrote (every fixture, rollout and row)`, async () => {
    const manifest = JSON.parse(readFileSync(join(FIXTURES, "codex", version, "manifest.json"), "utf8")) as {
      scenarios: { name: string }[];
    };
    const home = tempDir();
    makeCodexHome(home, { version: version as CodexVersion });
    for (const { name } of manifest.scenarios) seedCodexThread(home, version as CodexVersion, name);
    assert.ok(manifest.scenarios.length > 0, `no Codex ${version} fixtures`);
    await assertNoDrift("codex", "--codex-home", home, manifest.scenarios.length, `Codex ${version}`);
  });
}

for (const version of versions("hermes")) {
  test(`drift reports nothing on any session Hermes ${version} wrote (every state.db, snapshot and transcript)`, async () => {
    const dir = join(FIXTURES, "hermes", version);
    const databases = files(dir, ".state.db");
    assert.ok(databases.length > 0, `no Hermes ${version} fixtures`);
    for (const database of databases) {
      const scenario = database.slice(0, -".state.db".length);
      const home = tempDir();
      copyFileSync(join(dir, database), join(home, "state.db"));
      // Snapshot and legacy-gateway scenarios also left files under sessions/.
      if (existsSync(join(dir, scenario, "sessions"))) {
        cpSync(join(dir, scenario, "sessions"), join(home, "sessions"), { recursive: true });
      }
      await assertNoDrift("hermes", "--hermes-home", home, undefined, `Hermes ${version} ${scenario}`);
    }
  });
}

for (const version of versions("gemini-cli")) {
  test(`drift reports nothing on any session Gemini CLI ${version} wrote (every fixture, placed with what its scenario left beside it)`, async () => {
    const dir = join(FIXTURES, "gemini-cli", version);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Record<
      string,
      { second?: object }
    >;
    const home = tempDir();
    for (const file of readdirSync(dir)) {
      geminiMaterial.placement(join(dir, file))?.place(home);
    }
    // One session a scenario, and one more for a second project's: a stub, and a legacy .json its .jsonl
    // migrated, are the same session.
    const sessions = Object.values(manifest).reduce((n, s) => n + (s.second ? 2 : 1), 0);
    assert.ok(sessions > 0, `no Gemini CLI ${version} fixtures`);
    await assertNoDrift("gemini-cli", "--gemini-home", home, sessions, `Gemini CLI ${version}`);
  });
}
