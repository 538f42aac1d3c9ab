import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { phaseClock } from "../lib/io/phase-clock.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const SOURCE = join(
  import.meta.dirname!,
  "..",
  "fixtures",
  "claude-code",
  "2.1.328",
  "thinking-tool-use.jsonl",
);

test("the phase clock tells each phase marked, in order, with its seconds, only with SESSION_BRIDGE_DEBUG=1", () => {
  const told: string[] = [];
  const feedback = { notice: (line: string) => told.push(line) };
  const quiet = phaseClock({}, feedback);
  quiet.mark("read");
  quiet.tell();
  assert.deepEqual(told, []);
  const clock = phaseClock({ SESSION_BRIDGE_DEBUG: "1" }, feedback);
  clock.mark("read");
  clock.mark("written");
  clock.tell();
  assert.equal(told.length, 1);
  assert.match(told[0]!, /^this thread: read \d+\.\d\d s, written \d+\.\d\d s$/);
});

test("a conversion says where its time went with SESSION_BRIDGE_DEBUG=1, and nothing of it without", async () => {
  const root = tempDir();
  const convert = (env: Record<string, string>) =>
    runCli(["convert", SOURCE, "--to", "codex", "-o", join(root, "out.jsonl"), "--force"], {
      SESSION_BRIDGE_HOME: join(root, "bridge"),
      ...env,
    });
  const told = await convert({ SESSION_BRIDGE_DEBUG: "1" });
  assert.equal(told.code, 0, told.stderr);
  assert.match(
    told.stderr,
    /session-bridge: this thread: read \d+\.\d\d s, fitted and planned \d+\.\d\d s, written and published \d+\.\d\d s\n/,
  );
  const quiet = await convert({});
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /this thread:/);
});
