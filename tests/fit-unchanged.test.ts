/**
 * Issue 33: a session that fits the target model's window is written exactly as it was before fitting existed.
 * Every captured session of every harness, into every other harness, written with `--fit auto` (the default)
 * and with `--fit off`: the same bytes, but for the ids each write mints afresh (uuids, random hex), which are
 * numbered in order of appearance in both files before they are compared.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Harness } from "../lib/harnesses/types.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { convertSession } from "../lib/pipeline/convert.ts";
import type { FitMode } from "../lib/fit/fit.ts";
import type { SessionStream } from "../lib/ir/stream.ts";
import { builtinCoverage, capturedSessions } from "./helpers/harness-material.ts";
import { tempDir } from "./helpers/tmp.ts";

const covered = await builtinCoverage();
const HARNESSES = covered.map((c) => c.harness);
const dir = tempDir("sb-fit-unchanged-");
const bridgeHome = join(dir, "bridge");
const homes = Object.fromEntries(HARNESSES.map((h) => [h.name, join(dir, h.name)]));
const sources = (await Promise.all(covered.map((c) => capturedSessions(c, join(dir, "sources"))))).flat();
const NOW = new Date("2026-12-04T00:00:00.000Z");

/**
 * Ids a writer mints on each write: a uuid, a run of 16 or more hex digits, OpenCode's message and part ids
 * (12 hex digits of time, 14 random letters and digits), Pi's entry ids (8 hex digits, quoted).
 */
const FRESH =
  /(?<=")[0-9a-f]{8}(?=")|(?<=\b(?:msg|prt)_)[0-9a-f]{12}[0-9A-Za-z]{14}\b|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9a-f])[0-9a-f]{16,}(?![0-9a-f])/gi;

/** The text with each distinct fresh id replaced by its order of first appearance. */
function numberedIds(text: string): string {
  const seen = new Map<string, number>();
  return text.replace(FRESH, (id) => {
    if (!seen.has(id)) seen.set(id, seen.size);
    return `<id ${seen.get(id)}>`;
  });
}

let written = 0;
async function write(session: SessionStream, target: Harness, id: string, fit: FitMode): Promise<string> {
  const path = join(dir, `out-${written++}.${target.name}`);
  await convertSession(
    session,
    target,
    {
      registry: builtinRegistry,
      id,
      handshake: true,
      now: NOW,
      home: homes[target.name],
      cwd: "/home/user/project",
      fit,
    },
    { path, replace: false },
    bridgeHome,
  );
  return numberedIds(readFileSync(path, "latin1"));
}

for (const source of sources) {
  test(`a session that fits is written the same with --fit auto as with --fit off: ${source.label}`, async () => {
    const session = await source.harness.store.read(source.ref);
    for (const target of HARNESSES.filter((h) => h !== source.harness)) {
      const id = target.store.newId(NOW, session);
      const [auto, off] = [await write(session, target, id, "auto"), await write(session, target, id, "off")];
      assert.equal(auto, off, `${source.label} -> ${target.name}`);
    }
  });
}
