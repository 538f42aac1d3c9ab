/**
 * Default redaction: a corpus of real-shaped secrets that must all go, look-alikes that must all stay, and
 * LazyBridge 1.8.3's own redactor (run in its venv) agreeing with ours on the patterns we share.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { LAZYBRIDGE_PATTERNS, redactSecrets, redactString } from "../lib/observe/redact.ts";
import { lazybridgePython } from "./helpers/lazybridge.ts";

/** Deterministic characters from an alphabet, so the corpus is stable and real-shaped. */
function chars(alphabet: string, length: number, seed: number): string {
  let state = seed * 2654435761 % 4294967296 || 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += alphabet[state % alphabet.length];
  }
  return out;
}
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_NUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64URL = ALNUM + "_-";
const B64 = ALNUM + "+/";

function secrets(): { secret: string; context: string }[] {
  const out: { secret: string; context: string }[] = [];
  for (let seed = 1; seed <= 4; seed++) {
    const s = (alphabet: string, n: number) => chars(alphabet, n, seed * 97 + n);
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJ${s(B64URL, 40)}.${s(B64URL, 43)}`;
    const list = [
      jwt,
      `sk-${s(B64URL, 48)}`,
      `sk-proj-${s(B64URL, 100)}`,
      `sk-ant-api03-${s(B64URL, 93)}AA`,
      `sk_live_${s(ALNUM, 24)}`,
      `rk_test_${s(ALNUM, 32)}`,
      `ghp_${s(ALNUM, 36)}`,
      `gho_${s(ALNUM, 36)}`,
      `github_pat_11${s(UPPER_NUM, 20)}_${s(ALNUM, 59)}`,
      `AIza${s(B64URL, 35)}`,
      `xoxb-${s("0123456789", 12)}-${s("0123456789", 13)}-${s(ALNUM, 24)}`,
      `AKIA${s(UPPER_NUM, 16)}`,
      `glpat-${s(B64URL, 20)}`,
      `npm_${s(ALNUM, 36)}`,
      `hf_${s("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34)}`,
      `https://hooks.slack.com/services/T${s(UPPER_NUM, 8)}/B${s(UPPER_NUM, 10)}/${s(ALNUM, 24)}`,
      `whsec_${s(ALNUM, 32)}`,
    ];
    for (const secret of list) out.push({ secret, context: `the value is ${secret}, keep it safe` });
    const awsSecret = s(B64, 40);
    out.push({ secret: awsSecret, context: `aws_secret_access_key = ${awsSecret}\n` });
    const password = `p4ss-${s(ALNUM, 10)}`;
    out.push({ secret: password, context: `DATABASE_URL=postgres://admin:${password}@db.internal:5432/app` });
    const bearer = s(B64URL, 32);
    out.push({
      secret: bearer,
      context: `curl -H "Authorization: Bearer ${bearer}" https://api.example.com`,
    });
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${s(B64, 64)}\n${
      s(B64, 64)
    }\n-----END RSA PRIVATE KEY-----`;
    out.push({ secret: pem, context: `key file:\n${pem}\nend` });
  }
  return out;
}

test("at least fifty real-shaped secrets are all redacted and leave a labelled marker", () => {
  const corpus = secrets();
  assert.ok(corpus.length >= 50, `corpus has ${corpus.length} secrets`);
  for (const { secret, context } of corpus) {
    const out = redactString(context);
    assert.ok(!out.includes(secret), `not redacted: ${context}`);
    assert.match(out, /<redacted:[a-z-]+>/);
  }
});

test("look-alikes stay: UUIDs, git hashes, base64 images, prose, ordinary URLs", () => {
  const lookAlikes = [
    "session 3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a3b resumed",
    "commit 6c1e727f3a9b2d4e5f60718293a4b5c6d7e8f901 fixed it",
    "![img](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)",
    "The Bearer of bad news asked for Basic help.",
    "Use the task-runner to skim files; ask-for-help when stuck.",
    "see https://github.com/owner/repo/pull/12 and http://localhost:8080/path",
    "ssh://git@github.com/owner/repo.git",
    "a 40-char hash: 0123456789abcdef0123456789abcdef01234567",
    "the function sk_compute_total_value_for_items() returns",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
  ];
  for (const text of lookAlikes) assert.equal(redactString(text), text);
});

test("keys are never redacted, only string values, at any depth", () => {
  const key = `ghp_${"a".repeat(36)}`;
  const out = redactSecrets({ [key]: [{ token: key }, 3, null, true] });
  assert.deepEqual(out, { [key]: [{ token: "<redacted:github-token>" }, 3, null, true] });
});

test("a secret glued to a non-ASCII letter is one word, as Python's Unicode \\b sees it", () => {
  const key = `sk-${"A".repeat(24)}`;
  assert.equal(redactString(`é${key}`), `é${key}`);
  assert.equal(redactString(`本${key}`), `本${key}`);
  assert.equal(redactString(`—${key}`), "—<redacted:openai-style-key>");
});

/** Inputs that exercise each shared pattern, its boundaries and the Unicode edge. */
function sharedPatternInputs(): string[] {
  const key = `sk-${"Ab3_".repeat(6)}`;
  const inputs = secrets().map(({ context }) => context);
  inputs.push(
    `é${key}`,
    `本${key}`,
    `—${key}`,
    `x${key}`,
    `_${key}`,
    `AIza${"B".repeat(35)}é`,
    `AIza${"B".repeat(34)}-é`,
    `AIza${"B".repeat(34)}--`,
    `bearer ${"t".repeat(12)}`,
    `BASIC\t${"dXNlcjpwYXNz"}`,
    `ÀBearer ${"t".repeat(12)}`,
    `xoxp-${"1".repeat(10)} and xoxq-${"1".repeat(10)}`,
    `ghu_${"z".repeat(35)} ghs_${"z".repeat(40)}`,
  );
  return inputs;
}

test("on LazyBridge's seven patterns our output equals LazyBridge 1.8.3's redact_secrets", (t) => {
  const py = lazybridgePython();
  if ("skip" in py) return t.skip(py.skip);
  const inputs = sharedPatternInputs();
  const script = [
    "import json, sys",
    "from lazybridge.session import redact_secrets",
    "print(json.dumps(redact_secrets({'items': json.load(sys.stdin)})['items']))",
  ].join("\n");
  const r = spawnSync(py.python, ["-c", script], { input: JSON.stringify(inputs), encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const theirs = JSON.parse(r.stdout) as string[];
  const ours = inputs.map((text) => redactString(text, LAZYBRIDGE_PATTERNS));
  assert.deepEqual(ours, theirs);
});
