/**
 * Start-up pays nothing for the schemas: the embedded versions are listed from generated metadata, and a
 * validator is compiled only when a record of its type is checked. Not timed here: `npm run bench` measures.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../lib/runtime.ts";

const PROBE = fileURLToPath(new URL("./helpers/startup-probe.ts", import.meta.url));

test("--version, --help and loading every command compile no schema validator; a record type compiles one", () => {
  const [command, ...args] = scriptArgv(PROBE);
  const result = spawnSync(command!, args, { encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.trim().split("\n");
  assert.match(lines[0]!, /^session-bridge \d+\.\d+\.\d+$/);
  assert.deepEqual(JSON.parse(lines.at(-1)!), { codes: [0, 0], atStartup: 0, afterOneRecordType: 1 });
});
