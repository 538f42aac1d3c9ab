import { test } from "node:test";
import assert from "node:assert/strict";
import { assertSafeId, assertUuid } from "../lib/ids.ts";
import { bucketName } from "../lib/harnesses/claude-code/bucket.ts";
import { wyhash } from "../lib/hash/wyhash.ts";
import { shellQuote } from "../lib/cli/shell.ts";
import { safeText } from "../lib/cli/output.ts";
import { runtimeName } from "../lib/runtime.ts";

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

test("claude bucket of a long cwd is cut at 200 and suffixed with the base-36 wyhash of the path", () => {
  const cwd = `/home/user/${"deep/".repeat(50)}project`;
  const bucket = bucketName(cwd);
  assert.equal(bucket, `${cwd.replace(/[^a-zA-Z0-9]/g, "-").slice(0, 200)}-${wyhash(cwd).toString(36)}`);
  assert.equal(bucketName("/x".repeat(100)).length, 200);
});

test(
  "wyhash matches Bun.hash, which the Bun build of Claude Code uses",
  { skip: runtimeName() !== "bun" },
  () => {
    const bunHash = (globalThis as unknown as { Bun: { hash(s: string): bigint | number } }).Bun.hash;
    for (
      const s of [
        "",
        "a",
        "abcd",
        "x".repeat(16),
        "y".repeat(17),
        "z".repeat(48),
        "w".repeat(97),
        "/home/é/日本",
      ]
    ) {
      assert.equal(wyhash(s), BigInt(bunHash(s)), JSON.stringify(s));
    }
  },
);

test("wyhash known values hold under every runtime", () => {
  assert.equal(wyhash("").toString(36), "27k1wwwhf13t");
  assert.equal(wyhash("hello world!!").toString(36), "3puahe1vqm34i");
  assert.equal(wyhash("w".repeat(49)).toString(36), "a1v8rzmex5ij");
});

test("printed commands quote paths with spaces and quotes", () => {
  assert.equal(shellQuote("/tmp/plain-path"), "/tmp/plain-path");
  assert.equal(shellQuote("/tmp/it's here"), `'/tmp/it'\\''s here'`);
});

test("terminal output escapes control sequences from transcripts", () => {
  assert.equal(safeText("ok\u001b[2Jgone\u009bx\n\tend"), "ok\\u001b[2Jgone\\u009bx\n\tend");
});
