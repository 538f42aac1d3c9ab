/**
 * Pi's entry schemas (schemas/pi/<version>/) against what the real binary wrote (fixtures/pi/<version>/, made
 * by acceptance/capture-pi-fixtures.ts): every line of every captured session file validates against the schema
 * of its `type`, through the generated validators and the drift collector the readers use; and a shape the
 * pinned version does not write is reported, not let through.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DriftCollector } from "../lib/schemas/drift.ts";
import { VALIDATORS } from "../lib/generated/validators/pi.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/pi", import.meta.url));

/** Session files only: the requests a capture logged are the fake server's, not Pi's. */
function sessionFiles(version: string): string[] {
  return readdirSync(join(FIXTURES, version))
    .filter((f) => f.endsWith(".jsonl") && !f.endsWith(".requests.jsonl"))
    .map((f) => join(FIXTURES, version, f));
}

function driftOf(version: string, lines: { file: string; line: string }[]) {
  const drift = new DriftCollector("pi", VALIDATORS);
  lines.forEach(({ line }, i) => {
    const entry = JSON.parse(line) as { type?: unknown };
    drift.check(version, String(entry.type), entry, i);
  });
  return drift.entries().map((d) => ({ ...d, examples: d.examples.map((i) => lines[i]?.file) }));
}

for (const version of readdirSync(FIXTURES).sort()) {
  test(`every entry Pi ${version} wrote in its fixtures validates against its schema`, () => {
    const lines = sessionFiles(version).flatMap((file) =>
      readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((line) => ({ file, line }))
    );
    assert.ok(lines.length > 0, `no captured session lines under fixtures/pi/${version}`);
    assert.deepEqual(driftOf(version, lines), []);
  });
}

test("a Pi entry of a shape the pinned version does not write is drift", () => {
  const entry = (fields: Record<string, unknown>) => ({
    file: "made-up",
    line: JSON.stringify({
      id: "0a1b2c3d",
      parentId: null,
      timestamp: "2026-01-01T00:00:00.000Z",
      ...fields,
    }),
  });
  const drift = driftOf("0.73.1", [
    entry({ type: "message", message: { role: "assistant", content: [], newField: 1 } }),
    entry({ type: "message", message: { role: "planner", content: "text" } }),
    entry({ type: "thinking_level_change", thinkingLevel: "maximal" }),
    entry({ type: "rewind", targetId: "0a1b2c3d" }),
  ]);
  const problems = drift.map((d) => `${d.where} ${d.problem}`);
  assert.ok(
    problems.some((p) => p.startsWith("record:message") && p.includes("newField")),
    problems.join("\n"),
  );
  assert.ok(
    problems.some((p) => p.startsWith("record:message") && p.includes("/message")),
    problems.join("\n"),
  );
  assert.ok(
    problems.includes("record:thinking_level_change unknown value at /thinkingLevel"),
    problems.join("\n"),
  );
  assert.ok(problems.includes("record:rewind unknown record type"), problems.join("\n"));
});
