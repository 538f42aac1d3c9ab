/**
 * The OpenCode schemas describe everything the captured binaries wrote: every `message.data` (by role), every
 * `part.data` (by type), every `session` row and every `opencode export` file of every fixture validates against
 * the generated validators of its version, and a shape the version never wrote (an unknown part type, a new
 * field) does not.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { VALIDATORS } from "../lib/generated/validators/opencode.ts";
import type { RecordValidator } from "../lib/generated/validator-table.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/opencode/", import.meta.url));

type Row = Record<string, string | number | null>;

/** Each record of a fixture folder with the schema kind it must match and where it came from. */
function recordsOf(dir: string): { kind: string; where: string; value: unknown }[] {
  const out: { kind: string; where: string; value: unknown }[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (file.endsWith(".rows.json")) {
      const rows = JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, Row[]>;
      for (const row of rows.session ?? []) {
        out.push({ kind: "session-row", where: `${file} session ${row.id}`, value: row });
      }
      for (const row of rows.message ?? []) {
        const data = JSON.parse(String(row.data)) as { role: string };
        out.push({ kind: `message-${data.role}`, where: `${file} message ${row.id}`, value: data });
      }
      for (const row of rows.part ?? []) {
        const data = JSON.parse(String(row.data)) as { type: string };
        out.push({ kind: `part-${data.type}`, where: `${file} part ${row.id}`, value: data });
      }
    } else if (/\.export(\.(child|top)-\d+)?\.json$/.test(file)) {
      out.push({ kind: "export", where: file, value: JSON.parse(readFileSync(join(dir, file), "utf8")) });
    }
  }
  return out;
}

function validatorsOf(version: string): Readonly<Record<string, RecordValidator>> {
  const make = VALIDATORS[version];
  assert.ok(make, `no schemas for OpenCode ${version}`);
  return make();
}

for (const version of readdirSync(FIXTURES).sort()) {
  test(`every row and export OpenCode ${version} wrote validates against its schemas`, () => {
    const validators = validatorsOf(version);
    const records = recordsOf(join(FIXTURES, version));
    assert.ok(records.length > 0, "no records in the fixtures");
    const failures: string[] = [];
    for (const r of records) {
      const validate = validators[r.kind];
      if (!validate) failures.push(`${r.where}: no schema for ${r.kind}`);
      else if (!validate(r.value)) failures.push(`${r.where}: ${JSON.stringify(validate.errors?.[0])}`);
    }
    assert.deepEqual(failures, []);
  });
}

test("an OpenCode text part with a field 1.18.33 never wrote fails its schema", () => {
  const validate = validatorsOf("1.18.33")["part-text"];
  assert.ok(validate);
  assert.equal(validate({ type: "text", text: "hi" }), true);
  assert.equal(validate({ type: "text", text: "hi", newField: 1 }), false);
});

test("an OpenCode tool part in a state outside pending, running, completed and error fails its schema", () => {
  const validate = validatorsOf("1.18.33")["part-tool"];
  assert.ok(validate);
  const part = (status: string) => ({
    type: "tool",
    tool: "bash",
    callID: "call_1",
    state: { status, input: {}, time: { start: 1 } },
  });
  assert.equal(validate(part("running")), true);
  assert.equal(validate(part("paused")), false);
});
