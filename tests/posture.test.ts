import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudePermissionMode } from "../lib/harnesses/claude-code/posture.ts";
import { codexPolicies } from "../lib/harnesses/codex/posture.ts";
import { BUILTIN_HARNESSES, builtinRegistry, type HarnessName } from "../lib/harnesses/registry.ts";

/** The posture a harness's own words mean, by its descriptor. */
const postureFrom = (harness: HarnessName, words: string) =>
  BUILTIN_HARNESSES[harness].conversation.posture?.toPosture(words);
import { jsonLines } from "./helpers/fixtures.ts";
import { codexFixture } from "./helpers/codex.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

test("every Claude Code permission mode survives Claude to Codex to Claude by meaning", () => {
  for (const mode of ["default", "acceptEdits", "plan", "bypassPermissions"]) {
    const codex = codexPolicies(postureFrom("claude-code", mode)!);
    const back = postureFrom("codex", `${codex.approval} ${codex.sandbox}`)!;
    const expected = mode === "acceptEdits" ? "default" : mode;
    assert.equal(claudePermissionMode(back), expected, mode);
  }
});

test("Codex policies map to Claude Code words, never copied as foreign words", () => {
  assert.equal(claudePermissionMode(postureFrom("codex", "never danger-full-access")!), "bypassPermissions");
  assert.equal(claudePermissionMode(postureFrom("codex", "never read-only")!), "plan");
  assert.equal(claudePermissionMode(postureFrom("codex", "on-request workspace-write")!), "default");
  assert.deepEqual(codexPolicies(postureFrom("claude-code", "bypassPermissions")!), {
    approval: "never",
    sandbox: "danger-full-access",
  });
});

test("words without an equivalent map to nothing", () => {
  assert.equal(postureFrom("claude-code", "dontAsk"), undefined);
  assert.equal(postureFrom("codex", "sometimes read-only"), undefined);
  assert.equal(postureFrom("hermes", "yolo"), undefined);
});

const root = tempDir();

interface Entry {
  code: string;
  severity: string;
  detail: string;
}

/** Converts with the real CLI; a Claude file is named by its id, as Claude keeps it. */
async function convert(source: string, from: string, to: string, name: string, extra: string[] = []) {
  const out = join(root, name);
  const r = await runCliJson(["convert", source, "--from", from, "--to", to, "-o", out, ...extra]);
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  let path = out;
  if (to === "claude-code") renameSync(out, path = join(root, `${id}.jsonl`));
  const report = r.json.report as { lossless: boolean; entries: Entry[] };
  return { path, report, posture: report.entries.find((e) => e.code.startsWith("permission-posture")) };
}

test("Codex never/workspace-write to Claude Code is reported as changed, and a hop back with --permissions keep restores never", async () => {
  const there = await convert(
    codexFixture("0.169.0", "apply-patch"),
    "codex",
    "claude-code",
    "never.claude.jsonl",
  );
  assert.deepEqual(there.posture, {
    code: "permission-posture-changed",
    severity: "loss",
    count: 1,
    detail:
      'Codex approval and sandbox policies "never workspace-write" (approval never, sandbox workspace-write) ' +
      'written as Claude Code permission mode "default", which means approval on-request, sandbox workspace-write, ' +
      "allowing no more than codex did: claude-code has no exact equivalent",
    examples: [],
  });
  assert.equal(there.report.lossless, false);
  const back = await convert(there.path, "claude-code", "codex", "never.back.jsonl", [
    "--permissions",
    "keep",
  ]);
  const contexts = jsonLines(back.path).filter((l) => l.type === "turn_context").map((l) =>
    l.payload as { approval_policy: string; sandbox_policy: { type: string } }
  );
  assert.ok(contexts.length > 0);
  for (const c of contexts) {
    assert.deepEqual([c.approval_policy, c.sandbox_policy.type], ["never", "workspace-write"]);
  }
  assert.equal(back.posture?.code, "permission-posture-restored");
  assert.equal(
    back.posture?.detail,
    'Codex approval and sandbox policies "never workspace-write" restored as they were before the earlier hop ' +
      '(the source said "default")',
  );
});

/** A Codex session recorded as never asking and without a sandbox. */
function fullAccessCodex(): string {
  const source = join(root, "full-access.jsonl");
  writeFileSync(
    source,
    readFileSync(codexFixture("0.169.0", "text-turns"), "utf8").replaceAll(
      '"sandbox_policy":{"type":"read-only"}',
      '"sandbox_policy":{"type":"danger-full-access"}',
    ),
  );
  return source;
}

const modesOf = (
  path: string,
) => [...new Set(jsonLines(path).flatMap((r) => (r.permissionMode ? [r.permissionMode] : [])))];

test("permissions never widen silently: Codex never/danger-full-access becomes Claude Code's default, reported first", async () => {
  const there = await convert(fullAccessCodex(), "codex", "claude-code", "narrowed.claude.jsonl");
  assert.deepEqual(modesOf(there.path), ["default"]);
  assert.deepEqual(there.report.entries[0], {
    code: "permission-posture-narrowed",
    severity: "warning",
    count: 1,
    detail:
      'Codex approval and sandbox policies "never danger-full-access" (approval never, sandbox full-access) ' +
      'written as Claude Code permission mode "default" (approval on-request, sandbox workspace-write): no wider ' +
      "than claude-code allows when told nothing; --permissions keep carries the source's as it was",
    examples: [],
  });
});

test("--permissions keep carries Codex never/danger-full-access as bypassPermissions, and the report warns first", async () => {
  const there = await convert(fullAccessCodex(), "codex", "claude-code", "kept.claude.jsonl", [
    "--permissions",
    "keep",
  ]);
  assert.deepEqual(modesOf(there.path), ["bypassPermissions"]);
  assert.deepEqual(there.report.entries[0], {
    code: "permission-posture-widened",
    severity: "warning",
    count: 1,
    detail:
      'Codex approval and sandbox policies "never danger-full-access" (approval never, sandbox full-access) ' +
      'written as Claude Code permission mode "bypassPermissions": --permissions keep: claude-code lets the ' +
      "agent do more unasked than its own default (approval on-request, sandbox workspace-write), as it did in codex",
    examples: [],
  });
});

test("a hop back restores the earlier harness's wider words only with --permissions keep", async () => {
  const there = await convert(fullAccessCodex(), "codex", "claude-code", "hop.claude.jsonl", [
    "--permissions",
    "keep",
  ]);
  const contexts = (path: string) => [
    ...new Set(
      jsonLines(path).filter((l) => l.type === "turn_context").map((l) => {
        const p = l.payload as { approval_policy: string; sandbox_policy: { type: string } };
        return `${p.approval_policy} ${p.sandbox_policy.type}`;
      }),
    ),
  ];
  const narrowed = await convert(there.path, "claude-code", "codex", "hop.back.jsonl");
  assert.deepEqual(contexts(narrowed.path), ["on-request workspace-write"]);
  assert.equal(narrowed.report.entries[0]?.code, "permission-posture-narrowed");
  assert.match(
    narrowed.report.entries[0]!.detail,
    /"bypassPermissions", the earlier hop's "never danger-full-access"/,
  );
  const kept = await convert(there.path, "claude-code", "codex", "hop.kept.jsonl", ["--permissions", "keep"]);
  assert.deepEqual(contexts(kept.path), ["never danger-full-access"]);
});

test("--permissions takes narrow or keep; anything else is bad usage (exit 2)", async () => {
  const r = await runCliJson([
    "convert",
    fullAccessCodex(),
    "--from",
    "codex",
    "--to",
    "claude-code",
    "-o",
    join(root, "never-written.jsonl"),
    "--permissions",
    "wide",
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--permissions takes narrow or keep, not "wide"/);
});

test("a recorded permission mode named like an object's own property (constructor, __proto__, toString) is no mode of any harness", () => {
  for (const h of builtinRegistry.harnesses) {
    for (const words of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      assert.equal(h.conversation.posture?.toPosture(words), undefined, `${h.name}: ${words}`);
    }
  }
});
