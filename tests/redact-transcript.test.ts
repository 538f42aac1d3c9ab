/**
 * `--redact` on show, export and convert: a captured Claude Code session with secrets of several kinds planted
 * in its prompt is shared without any of them, the count reported is the number of secrets that were in the
 * output, and every other byte stays as it was.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();
const PROMPT = "EDIT: /home/user/project/notes.txt draft final";

const SECRETS = {
  anthropic: "sk-ant-api03-Zx8Qw2Lr5Tn7Vb1Mk4Pj9Hs3Gd6Fa0Ye",
  aws: "AKIAIOSFODNN7EXAMPLE",
  github: "github_pat_11ABCDEFG0abcdefghijKLMNOP_qrstuvwxYZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJK",
  urlPassword: "hunter2sup3r",
  slack: "https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/abcdefghijklmnopqrstuvwx",
  pemBody: "MIIEowIBAAKCAQEA7xQz9kP2mWb",
};
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.pemBody}\n-----END RSA PRIVATE KEY-----`;
const PLANTED = `deploy with key ${SECRETS.anthropic} and ${SECRETS.aws}; clone with ${SECRETS.github}; ` +
  `db at postgres://admin:${SECRETS.urlPassword}@db.internal:5432/app; hook ${SECRETS.slack}; key:\n${PEM}\n` +
  `then ${PROMPT}`;
const REDACTED = "deploy with key <redacted:openai-style-key> and <redacted:aws-access-key-id>; " +
  "clone with <redacted:github-fine-grained-pat>; db at postgres://admin:<redacted:url-password>@db.internal:5432/app; " +
  `hook <redacted:slack-webhook>; key:\n<redacted:private-key>\nthen ${PROMPT}`;

/** How often the planted secrets occur in a JSON text (as JSON strings escape them). */
function occurrences(jsonText: string): number {
  return Object.values(SECRETS).reduce(
    (sum, secret) => sum + jsonText.split(JSON.stringify(secret).slice(1, -1)).length - 1,
    0,
  );
}

function assertClean(text: string): void {
  for (const [kind, secret] of Object.entries(SECRETS)) {
    assert.ok(!text.includes(JSON.stringify(secret).slice(1, -1)), `${kind} secret left in the output`);
  }
}

/** A Claude home holding the edit-tool capture with the secrets planted in its prompt. */
function plantedHome(name: string): { home: string; id: string; path: string } {
  const home = join(dir, name);
  const seeded = seedClaudeHome(home, "edit-tool");
  const original = readFileSync(seeded.path, "utf8");
  const planted = original.replaceAll(JSON.stringify(PROMPT), JSON.stringify(PLANTED));
  assert.notEqual(planted, original);
  writeFileSync(seeded.path, planted);
  return { home, ...seeded };
}

test("show --redact: no secret in the transcript, the count on stderr, ordinary text unchanged", async () => {
  const { home, id } = plantedHome("show");
  const plain = await runCli(["show", id, "--claude-home", home]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.ok(plain.stdout.includes(PLANTED));
  const whole = await runCliJson(["show", id, "--claude-home", home]);
  const expected = occurrences(whole.stdout);
  assert.ok(expected >= 6, `only ${expected} planted secrets read`);

  const r = await runCli(["show", id, "--redact", "--claude-home", home]);
  assert.equal(r.code, 0, r.stderr);
  assertClean(r.stdout);
  assert.equal(r.stdout, plain.stdout.replaceAll(PLANTED, REDACTED));
  assert.match(r.stderr, new RegExp(`^redacted ${expected} secrets$`, "m"));

  const json = await runCliJson(["show", id, "--redact", "--claude-home", home]);
  assert.equal(json.code, 0, json.stderr);
  assertClean(json.stdout);
  assert.equal(json.json.redacted, expected);
});

test("export --redact: the file has no secret, the count is right, lines without one are byte for byte", async () => {
  const { home, id, path } = plantedHome("export");
  const source = readFileSync(path, "utf8");
  const out = join(dir, "export.jsonl");
  const r = await runCliJson(["export", id, "-o", out, "--redact", "--claude-home", home]);
  assert.equal(r.code, 0, r.stderr);
  const written = readFileSync(out, "utf8");
  assertClean(written);
  assert.equal(r.json.redacted, occurrences(source));
  assert.equal(written, source.replaceAll(JSON.stringify(PLANTED), JSON.stringify(REDACTED)));

  const text = await runCli([
    "export",
    id,
    "-o",
    join(dir, "export-text.jsonl"),
    "--redact",
    "--claude-home",
    home,
  ]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stderr, new RegExp(`^redacted ${occurrences(source)} secrets$`, "m"));
});

test("convert --redact: the rendered session has no secret and says how many went", async () => {
  const { home, id } = plantedHome("convert");
  const clear = join(dir, "clear.jsonl");
  const plain = await runCliJson(["convert", id, "--to", "codex", "-o", clear, "--claude-home", home]);
  assert.equal(plain.code, 0, plain.stderr);
  const expected = occurrences(readFileSync(clear, "utf8"));
  assert.ok(expected >= 6, `only ${expected} planted secrets rendered`);

  const out = join(dir, "redacted.jsonl");
  const r = await runCliJson(["convert", id, "--to", "codex", "-o", out, "--redact", "--claude-home", home]);
  assert.equal(r.code, 0, r.stderr);
  const written = readFileSync(out, "utf8");
  assertClean(written);
  assert.equal(r.json.redacted, expected);
  assert.ok(written.includes(JSON.stringify(REDACTED).slice(1, -1)), "the prompt kept its ordinary words");
  for (const line of written.split("\n")) JSON.parse(line || "null");
});
