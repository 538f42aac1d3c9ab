/**
 * GitHub Copilot CLI's event schemas (schemas/copilot-cli/<version>/, split by event type from the
 * session-events.schema.json its package ships: acceptance/split-copilot-schema.ts) against what the real binary
 * wrote (fixtures/copilot-cli/<version>/, acceptance/capture-copilot-fixtures.ts): every event of every captured
 * events.jsonl fits the schema of its type for the version that wrote it, so drift stays quiet on them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { VALIDATORS } from "../lib/generated/validators/copilot-cli.ts";

const ROOT = join(import.meta.dirname ?? ".", "..");
const FIXTURES = join(ROOT, "fixtures", "copilot-cli");
const SCHEMAS = join(ROOT, "schemas", "copilot-cli");

/**
 * Event types the binary wrote that the schema it ships does not describe, by version: 1.0.102 wrote these
 * during `/compact` (fixture `compacted`). Their schemas are written for the reader (beside the split ones in
 * schemas/copilot-cli/1.0.102/), so each has a validator; named here, so that one losing its schema fails.
 */
const OWN_SCHEMAS: Record<string, readonly string[]> = {
  "1.0.102": [
    "model.message",
    "model.messages_snapshot",
    "model.model_call_started",
    "model.model_call_success",
    "model.response",
    "model.turn_ended",
    "model.turn_started",
  ],
};

function eventFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return eventFiles(path);
    return entry.name === "events.jsonl" ? [path] : [];
  }).sort();
}

for (const version of readdirSync(FIXTURES).sort()) {
  test(`every event Copilot CLI ${version} wrote in the fixtures fits the schema of its type`, () => {
    const validators = VALIDATORS[version]?.();
    assert.ok(
      validators,
      `no schemas/copilot-cli/${version}: run acceptance/split-copilot-schema.ts ${version}`,
    );
    const files = eventFiles(join(FIXTURES, version));
    assert.ok(files.length > 0, `fixtures/copilot-cli/${version} holds no events.jsonl`);
    const misfits: string[] = [];
    const undescribed = new Set<string>();
    for (const file of files) {
      readFileSync(file, "utf8").split("\n").forEach((line, i) => {
        if (line.trim() === "") return;
        const event = JSON.parse(line) as { type: string };
        const where = `${file.slice(ROOT.length + 1)}:${i + 1} (${event.type})`;
        const validate = validators[event.type];
        if (!validate) undescribed.add(event.type);
        else if (!validate(event)) {
          misfits.push(
            `${where}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join("; ")}`,
          );
        }
      });
    }
    assert.deepEqual(misfits, []);
    assert.deepEqual([...undescribed].sort(), [], "event types with no schema");
    for (const type of OWN_SCHEMAS[version] ?? []) assert.ok(validators[type], `${type} has no schema`);
  });
}

test("each Copilot CLI event schema describes the event type its file is named after", () => {
  for (const version of readdirSync(SCHEMAS)) {
    for (const file of readdirSync(join(SCHEMAS, version))) {
      const schema = JSON.parse(readFileSync(join(SCHEMAS, version, file), "utf8")) as {
        properties: { type: { const: string } };
      };
      assert.equal(`${schema.properties.type.const}.schema.json`, file, `schemas/copilot-cli/${version}`);
    }
  }
});
