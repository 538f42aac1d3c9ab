import { test } from "node:test";
import assert from "node:assert/strict";
import { assertSafeId, assertUuid, idFileComponent } from "../lib/ids.ts";
import { bucketFor, bucketName, javaStringHash } from "../lib/harnesses/claude-code/bucket.ts";
import { CLAUDE_FIXTURES } from "./helpers/fixtures.ts";
import { shellQuote } from "../lib/io/shell.ts";
import { terminalText } from "../lib/io/control-characters.ts";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";

test("ids that could escape a folder are refused", () => {
  for (const bad of ["../etc", "a/b", "..", "a\\b", "", "x\u0000y", ".hidden", "a..b"]) {
    assert.throws(() => assertSafeId(bad), /invalid session id/, bad);
  }
  assert.equal(assertSafeId("20261129_202528_a1b2c3"), "20261129_202528_a1b2c3");
  assert.throws(() => assertUuid("../../x"), /expected a UUID/);
  assert.equal(assertUuid("6F9619FF-8B86-4011-B42D-00C04FC964FF"), "6f9619ff-8b86-4011-b42d-00c04fc964ff");
});

test("claude bucket replaces every non-alphanumeric UTF-16 unit without collapsing runs", () => {
  assert.equal(bucketName("/home/user/my_project.v2"), "-home-user-my-project-v2");
  assert.equal(bucketName("/tmp/a  b"), "-tmp-a--b");
  assert.equal(bucketName("/tmp/café"), "-tmp-caf-");
  assert.equal(bucketName("/tmp/😀"), "-tmp---");
});

test("claude buckets match every folder the real 2.1.328 binary created", () => {
  const observed = JSON.parse(readFileSync(join(CLAUDE_FIXTURES, "buckets.observed.json"), "utf8")) as {
    cwd: string;
    bucket: string;
  }[];
  assert.ok(observed.length >= 10);
  for (const { cwd, bucket } of observed) {
    // The symlinked probe is bucketed under its realpath, which a handoff resolves before naming the bucket.
    if (cwd.endsWith("link-to-cafe")) continue;
    assert.equal(bucketName(cwd), bucket, cwd);
  }
});

test("a long cwd is cut at 200 and suffixed with the base-36 absolute Java string hash", () => {
  assert.equal(javaStringHash("hello"), 99162322);
  assert.equal(bucketName("/x".repeat(100)).length, 200);
  assert.match(bucketName("/x".repeat(101)), /^(-x){100}-[0-9a-z]+$/);
});

test("CLAUDE_CODE_PROJECT_DIR_NAME replaces the bucket only with CLAUDE_CONFIG_DIR set and a valid name", () => {
  assert.equal(
    bucketFor("/a/b", { CLAUDE_CONFIG_DIR: "/c", CLAUDE_CODE_PROJECT_DIR_NAME: "my_bucket-1" }),
    "my_bucket-1",
  );
  assert.equal(bucketFor("/a/b", { CLAUDE_CODE_PROJECT_DIR_NAME: "my_bucket-1" }), "-a-b");
  assert.equal(
    bucketFor("/a/b", { CLAUDE_CONFIG_DIR: "/c", CLAUDE_CODE_PROJECT_DIR_NAME: "bad.name" }),
    "-a-b",
  );
  assert.equal(bucketFor("/a/b", { CLAUDE_CONFIG_DIR: "/c", CLAUDE_CODE_PROJECT_DIR_NAME: "nul" }), "-a-b");
});

test("printed commands quote paths with spaces and quotes", () => {
  assert.equal(shellQuote("/tmp/plain-path"), "/tmp/plain-path");
  assert.equal(shellQuote("/tmp/it's here"), `'/tmp/it'\\''s here'`);
});

test("terminal output escapes control sequences from transcripts", () => {
  assert.equal(terminalText("ok\u001b[2Jgone\u009bx\n\tend"), "ok\\u001b[2Jgone\\u009bx\n\tend");
});

test("a file session-bridge keeps about any id is one component in its folder: a safe id as itself, others encoded", () => {
  assert.equal(idFileComponent("20261129_202528_a1b2c3"), "20261129_202528_a1b2c3");
  const names = new Set<string>();
  for (
    const id of [
      "gw:tg dm 42",
      "../../etc/passwd",
      "..",
      ".",
      "a/b",
      "a\\b",
      "x\u0000y",
      "",
      "é",
      "x".repeat(500),
    ]
  ) {
    const name = idFileComponent(id);
    assert.match(name, /^%[A-Za-z0-9%_-]*$/, id);
    assert.ok(name.length <= 210, id);
    assert.equal(basename(join("/folder", name)), name, id);
    names.add(name);
  }
  assert.equal(names.size, 10, "distinct ids, distinct names");
});
