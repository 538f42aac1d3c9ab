/**
 * The Claude Code writer places a session in the bucket the installed Claude uses: before 2.1.47 a long path's
 * bucket keeps its whole name (fixtures/claude-code/1.0.128/buckets.observed.json), and a name past 255 bytes
 * cannot exist at all, so such a handoff is refused rather than written where Claude never looks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { bucketName, FIRST_HASHED_BUCKET_VERSION } from "../lib/harnesses/claude-code/bucket.ts";
import { runCliJson } from "./helpers/cli.ts";
import { sessionIdOf } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const OLD = "1.0.128";
const OLD_FIXTURES = new URL(`../fixtures/claude-code/${OLD}/`, import.meta.url).pathname;

test("Claude Code before 2.1.47 keeps a long bucket name whole; later versions cut and hash it", () => {
  const long = "/x".repeat(101);
  assert.equal(bucketName(long, OLD), "-x".repeat(101));
  assert.equal(bucketName(long, "2.1.45"), "-x".repeat(101));
  assert.equal(bucketName(long, FIRST_HASHED_BUCKET_VERSION), bucketName(long));
  assert.match(bucketName(long, "2.1.328"), /^(-x){100}-[0-9a-z]+$/);
  assert.equal(bucketName("/short/path", OLD), bucketName("/short/path"));
});

test("claude buckets match every folder the real 1.0.128 binary created", () => {
  const observed = JSON.parse(readFileSync(join(OLD_FIXTURES, "buckets.observed.json"), "utf8")) as {
    cwd: string;
    bucket: string;
    error?: string;
  }[];
  const made = observed.filter((o) => !o.error && !o.cwd.endsWith("link-to-cafe"));
  assert.ok(made.some((o) => o.bucket.length > 200), "the probe includes a bucket past 200 characters");
  for (const { cwd, bucket } of made) assert.equal(bucketName(cwd, OLD), bucket, cwd);
});

/** A Claude home that has run 1.0.128 (its newest transcript says so), and a project dir `length` long. */
function oldClaudeWorld(length: number) {
  const base = realpathSync(tempDir("sb-claude-old-"));
  const home = join(base, "claude");
  const source = join(OLD_FIXTURES, "thinking-tool-use.jsonl");
  const bucket = join(home, "projects", bucketName("/home/user/project"));
  mkdirSync(bucket, { recursive: true });
  const id = sessionIdOf(source);
  cpSync(source, join(bucket, `${id}.jsonl`));
  // Path components stay short: only the whole path (and so the bucket name) is long.
  let target = base;
  while (target.length < length) {
    target = join(target, "p".repeat(Math.min(60, length - target.length - 1) || 1));
  }
  mkdirSync(target, { recursive: true });
  return { home, id, target };
}

test("a handoff into a 1.0.128 home with a cwd past 200 characters lands in its unhashed bucket", async () => {
  const w = oldClaudeWorld(230);
  assert.ok(w.target.length > 200 && w.target.length <= 255);
  const r = await runCliJson(["handoff", w.id, "--to", "claude", "--cwd", w.target, "--claude-home", w.home]);
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as { id: string; path: string };
  assert.equal(
    target.path,
    join(w.home, "projects", w.target.replace(/[^a-zA-Z0-9]/g, "-"), `${target.id}.jsonl`),
  );
  assert.ok(existsSync(target.path));
});

test("a handoff into a 1.0.128 home whose bucket would pass 255 bytes is refused with nothing written", async () => {
  const w = oldClaudeWorld(300);
  const r = await runCliJson(["handoff", w.id, "--to", "claude", "--cwd", w.target, "--claude-home", w.home]);
  assert.equal(r.code, 1);
  assert.match((r.json.error as { message: string }).message, /Claude Code 1\.0\.128 cannot keep sessions/);
  assert.ok(!existsSync(join(w.home, "projects", w.target.replace(/[^a-zA-Z0-9]/g, "-"))));
});
