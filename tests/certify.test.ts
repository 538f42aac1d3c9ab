/**
 * The parts of `certify` that decide a pair without running a harness: the sentinel checks (a writer that drops
 * a role must fail with a reason naming the sentinel it lost), the sentinels a captured sample carries, the
 * report, version parsing, and the command itself when no harness is installed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assistantSentinel, checkRecall, checkSent, sentinelPlan } from "../lib/certify-kit/sentinels.ts";
import { sampleSentinels, sessionParts, writeSample } from "../lib/certify/structure.ts";
import { sampleFor } from "../lib/samples.ts";
import { findOnPath, parseVersion } from "../lib/certify-kit/binaries.ts";
import { reportTable } from "../lib/certify/report.ts";
import { certifyRoutes, certifyStyles, coveragePlan, routesInShare } from "../lib/cli/certify-options.ts";
import type { Expected, SentMessage } from "../lib/certify-kit/driver.ts";
import { BUILTIN_HARNESSES, builtinRegistry } from "../lib/harnesses/registry.ts";
import { cliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const expected: Expected = {
  user: "user-sentinel-abc123",
  assistant: "ASSISTANT-REPLY: r-1a2b3c4d (2 words, 30 chars)",
  tool: "tool-sentinel-abc123",
};

/** What a resumed harness sends when every role survived the handoff. */
const request: SentMessage[] = [
  { role: "system", text: "harness context" },
  { role: "user", text: "Remember user-sentinel-abc123." },
  { role: "assistant", text: "ASSISTANT-REPLY: r-1a2b3c4d (2 words, 30 chars)" },
  { role: "user", text: "TOOL: echo tool-sentinel-abc123" },
  { role: "tool_call", text: '{"name":"Bash","input":{"command":"echo tool-sentinel-abc123"}}' },
  { role: "tool", text: "tool-sentinel-abc123" },
  { role: "assistant", text: "Tool said: tool-sentinel-abc123" },
  { role: "user", text: "Please continue where we left off." },
];

test("a request carrying every sentinel in its role passes", () => {
  assert.deepEqual(checkSent(request, expected), []);
});

test("a writer that drops the assistant turn fails with exactly the assistant sentinel named", () => {
  const dropped = request.filter((m) => !(m.role === "assistant" && m.text.startsWith("ASSISTANT-REPLY")));
  assert.deepEqual(checkSent(dropped, expected), [
    `assistant sentinel "${expected.assistant}" not sent as assistant words`,
  ]);
});

test("a sentinel in the wrong role does not count", () => {
  // The assistant's words replayed as user text (a writer that flattens everything into user turns).
  const flattened = request.map((m) => (m.role === "assistant" ? { ...m, role: "user" as const } : m));
  assert.deepEqual(checkSent(flattened, expected), [
    `assistant sentinel "${expected.assistant}" not sent as assistant words`,
  ]);
  // A tool call kept only as text: the model's "Tool said" words mention the sentinel, but no call is there.
  const noCall = request.filter((m) => m.role !== "tool_call" && m.role !== "tool");
  assert.deepEqual(checkSent(noCall, expected), [
    `tool sentinel ${expected.tool} not sent as an assistant tool call`,
    `tool sentinel ${expected.tool} not sent as a tool output`,
  ]);
  const noUser = request.filter((m) => !m.text.includes(expected.user));
  assert.deepEqual(checkSent(noUser, expected), [`user sentinel ${expected.user} not sent as user words`]);
});

test("the fake plan's prompts trigger the fake servers; the real plan's tool output is not the user's words", () => {
  const fake = sentinelPlan("full", "abc123");
  assert.equal(fake.user, "user-sentinel-abc123");
  assert.equal(fake.tool, "tool-sentinel-abc123");
  assert.deepEqual(fake.prompts, {
    first: "Remember user-sentinel-abc123.",
    tool: "TOOL: echo tool-sentinel-abc123",
    toolCommand: "echo tool-sentinel-abc123",
  });
  assert.deepEqual(fake.interrupt, {
    first: "Remember user-sentinel-abc123.",
    tool: "TOOL: echo tool-sentinel-abc123",
    toolCommand: "echo tool-sentinel-abc123",
    slow: "TOOL: timeout 600 tail -F slow-sentinel-abc123",
    slowCommand: "timeout 600 tail -F slow-sentinel-abc123",
    queued: "Queued while busy: also keep queued-sentinel-abc123 in mind.",
  });
  assert.equal(fake.resume(2, "codex"), "Resumed in codex (stop 2): note hop-sentinel-abc123-2.");
  const real = sentinelPlan("real", "abc123");
  assert.equal(real.user, "user-sentinel-abc123");
  assert.equal(real.tool, "tool-abc123");
  assert.deepEqual(real.prompts, {
    first: "Remember the code word user-sentinel-abc123. Then invent one new random word of 10 to 14 " +
      "lowercase letters that appears nowhere in this message, and reply with only that word.",
    tool: "Use your shell tool to run exactly this command, then reply with only its output: " +
      "printf '%s-%s\\n' tool abc123",
    toolCommand: "printf '%s-%s\\n' tool abc123",
  });
  assert.ok(!`${real.prompts.first}${real.prompts.tool}`.includes("tool-abc123"), "only the shell makes it");
});

test("the assistant sentinel is the model's own words, never the user's", () => {
  const fake = sentinelPlan("full", "abc123");
  assert.equal(assistantSentinel("full", " ASSISTANT-REPLY: r-1 \n", fake.prompts), "ASSISTANT-REPLY: r-1");
  assert.throws(() => assistantSentinel("full", "", fake.prompts), /no assistant sentinel/);
  assert.throws(() => assistantSentinel("full", fake.user, fake.prompts), /appears in the user's words/);
  const real = sentinelPlan("real", "abc123");
  assert.equal(assistantSentinel("real", "Sure! Here it is: Quibblemorph.", real.prompts), "quibblemorph");
  assert.throws(() => assistantSentinel("real", "remember", real.prompts), /appears in the user's words/);
});

test("a real model's reply must recall every sentinel, case aside", () => {
  assert.deepEqual(
    checkRecall(`USER-SENTINEL-ABC123\n${expected.assistant}\n${expected.tool}`, expected),
    [],
  );
  assert.deepEqual(checkRecall(`${expected.user} and ${expected.tool}`, expected), [
    `the reply does not recall the assistant sentinel ${expected.assistant}`,
  ]);
});

/** The sentinels each embedded sample carries, read off the captured sessions themselves. */
const SAMPLE_SENTINELS = {
  "claude-code": {
    user: "Run this for me. TOOL: echo fixture-tool-output",
    assistant: "Tool said: fixture-tool-output",
    tool: "fixture-tool-output",
  },
  "hermes": {
    user: "TOOL: echo fixture-tool-output",
    assistant: "Tool said: fixture-tool-output",
    tool: "fixture-tool-output",
  },
} as const;

/** Codex's shell output carries a chunk id of its own in each capture. */
const codexSentinels = (chunk: string): Expected => ({
  user: "TOOL: echo hello-from-tool",
  assistant: `Tool said: Chunk ID: ${chunk}\nWall time: 0.0000 seconds\nProcess exited with code 0\n` +
    "Original token count: 4\nOutput:\nhello-from-tool",
  tool: "hello-from-tool",
});

test("every embedded sample yields user, assistant and tool sentinels that its own reader finds", async () => {
  const dir = tempDir();
  for (
    const [id, version, sentinels] of [
      ["claude-code", "1.0.128", SAMPLE_SENTINELS["claude-code"]],
      ["claude-code", "2.1.328", SAMPLE_SENTINELS["claude-code"]],
      ["codex", "0.147.0", codexSentinels("a6457d")],
      ["codex", "0.169.0", codexSentinels("727897")],
      ["hermes", "0.14.0", SAMPLE_SENTINELS.hermes],
      ["hermes", "0.19.0", SAMPLE_SENTINELS.hermes],
      // fixtures/gemini-cli/0.61.0/reasoning.jsonl: its one reply holding no tag (the other echoes the shell's
      // output wrapped in <untrusted_context>, made inert by a handoff).
      ["gemini-cli", "0.61.0", {
        user: "THINK: echo thought-out",
        assistant: "ASSISTANT-REPLY: acknowledged, turn 2, digest d4114edf.",
        tool: "thought-out",
      }],
      // fixtures/pi/0.73.1/exec-tools.jsonl: the longest word of a tool's output its call named is the file the
      // write tool wrote.
      ["pi", "0.73.1", {
        user: "SEQUENCE: write notes, read them, edit, summarize.",
        assistant: "SEQUENCE-DONE: 4 tools ran.",
        tool: "summary.txt",
      }],
    ] as const
  ) {
    const harness = BUILTIN_HARNESSES[id];
    const path = writeSample(sampleFor(await harness.integrations.certify!.samples!(), version), dir);
    const parts = sessionParts(await harness.store.read(path));
    assert.deepEqual(sampleSentinels(parts), sentinels, `${id} ${version}`);
    assert.deepEqual(checkSent(parts, sentinels), [], `${id} ${version}`);
  }
});

test("versions are read from what each harness prints", () => {
  assert.equal(parseVersion("2.1.328 (Claude Code)"), "2.1.328");
  assert.equal(parseVersion("codex-cli 0.169.0"), "0.169.0");
  assert.equal(parseVersion("Hermes Agent v0.19.0 (2026.7.20)\nPython: 3.11.7"), "0.19.0");
  assert.equal(parseVersion("no version here"), undefined);
});

test("routes come from --pairs (aliases allowed) in every style, A:B with its hop back unless --no-hops", () => {
  assert.deepEqual(
    certifyRoutes({ pairs: "claude:codex,hermes:hermes", styles: "exec" }, "full", builtinRegistry),
    [
      { style: "exec", hops: ["claude-code", "codex", "claude-code"] },
      { style: "exec", hops: ["hermes", "hermes"] },
    ],
  );
  assert.deepEqual(
    certifyRoutes({ pairs: "codex:hermes:claude", "no-hops": true }, "full", builtinRegistry),
    [
      { style: "exec", hops: ["codex", "hermes"] },
      { style: "interactive", hops: ["codex", "hermes"] },
      { style: "interrupted", hops: ["codex", "hermes"] },
    ],
  );
  assert.deepEqual(
    certifyRoutes({ pairs: "codex:hermes:claude", styles: "interrupted" }, "full", builtinRegistry),
    [
      { style: "interrupted", hops: ["codex", "hermes", "claude-code"] },
    ],
  );
  assert.throws(() => certifyRoutes({ pairs: "codex" }, "full", builtinRegistry), /SOURCE:TARGET/);
  assert.throws(() => certifyRoutes({ pairs: "a:b:c:d" }, "full", builtinRegistry), /SOURCE:TARGET/);
});

test("seed styles default to what the mode can seed; one it cannot is a usage error, not a skip", () => {
  assert.deepEqual(certifyStyles({}, "full"), ["exec", "interactive", "interrupted"]);
  assert.deepEqual(certifyStyles({}, "structure"), ["exec"]);
  assert.deepEqual(certifyStyles({}, "real"), ["exec"]);
  assert.throws(
    () => certifyStyles({ styles: "interactive" }, "structure"),
    /--styles: structure mode cannot seed interactive sessions \(it can: exec\)/,
  );
  assert.throws(() => certifyStyles({ styles: "typed" }, "full"), /unknown style "typed"/);
});

test("the coverage plan resumes every style of every harness in every other harness, handed off twice", () => {
  const plan = coveragePlan(["exec", "interactive", "interrupted"], ["claude-code", "codex", "hermes"], true);
  const line = (r: { style: string; hops: string[] }) => `${r.style}: ${r.hops.join(" > ")}`;
  assert.deepEqual(plan.map(line), [
    "exec: claude-code > claude-code",
    "exec: claude-code > codex > claude-code",
    "exec: claude-code > hermes > claude-code",
    "exec: codex > claude-code > codex",
    "exec: codex > codex",
    "exec: codex > hermes > codex",
    "exec: hermes > claude-code > hermes",
    "exec: hermes > codex > hermes",
    "exec: hermes > hermes",
    "interactive: claude-code > codex > hermes",
    "interactive: codex > hermes > claude-code",
    "interactive: hermes > claude-code > codex",
    "interrupted: claude-code > hermes > codex",
    "interrupted: claude-code > claude-code",
    "interrupted: codex > claude-code > hermes",
    "interrupted: codex > codex",
    "interrupted: hermes > codex > claude-code",
    "interrupted: hermes > hermes",
  ]);
  // Between the two TUI styles the second handoff (B → C) runs in both directions of every pair.
  const second = plan.filter((r) => r.style !== "exec" && r.hops.length === 3).map((r) =>
    `${r.hops[1]} > ${r.hops[2]}`
  ).sort();
  assert.deepEqual(second, [
    "claude-code > codex",
    "claude-code > hermes",
    "codex > claude-code",
    "codex > hermes",
    "hermes > claude-code",
    "hermes > codex",
  ]);
  assert.deepEqual(
    coveragePlan(["interactive"], ["claude-code", "codex", "hermes"], false).map(line),
    [
      "interactive: claude-code > codex",
      "interactive: claude-code > hermes",
      "interactive: codex > hermes",
      "interactive: codex > claude-code",
      "interactive: hermes > claude-code",
      "interactive: hermes > codex",
    ],
  );
});

test("with four harnesses each TUI style hands a session over every ordered pair, its routes resuming in every other harness", () => {
  const harnesses = ["claude-code", "codex", "hermes", "gemini-cli"];
  const plan = coveragePlan(["interactive", "interrupted"], harnesses, true);
  assert.deepEqual(plan.map((r) => `${r.style}: ${r.hops.join(" > ")}`), [
    "interactive: claude-code > codex > gemini-cli > hermes",
    "interactive: codex > hermes > claude-code > gemini-cli",
    "interactive: hermes > gemini-cli > codex > claude-code",
    "interactive: gemini-cli > claude-code > hermes > codex",
    "interrupted: claude-code > gemini-cli > codex > hermes",
    "interrupted: claude-code > claude-code",
    "interrupted: codex > claude-code > hermes > gemini-cli",
    "interrupted: codex > codex",
    "interrupted: hermes > codex > gemini-cli > claude-code",
    "interrupted: hermes > hermes",
    "interrupted: gemini-cli > hermes > claude-code > codex",
    "interrupted: gemini-cli > gemini-cli",
  ]);
  const everyPair = harnesses.flatMap((a) => harnesses.filter((b) => b !== a).map((b) => `${a} > ${b}`))
    .sort();
  for (const style of ["interactive", "interrupted"]) {
    const handoffs = plan.filter((r) => r.style === style && r.hops.length > 2)
      .flatMap((r) => r.hops.slice(1).map((to, i) => `${r.hops[i]} > ${to}`)).sort();
    assert.deepEqual(handoffs, everyPair, style);
  }
});

test("the report table has pair, mode, versions, result, time and reason columns", () => {
  const lines = reportTable({
    ok: false,
    mode: "full",
    harnesses: [],
    seconds: 3,
    results: [
      {
        style: "interrupted",
        hops: ["codex", "claude-code"],
        mode: "full",
        versions: { codex: "0.169.0", "claude-code": "2.1.328" },
        outcome: "fail",
        reasons: ["user sentinel u not sent as user words"],
        notes: [],
        seconds: 1.25,
      },
      {
        style: "interrupted",
        hops: ["codex", "claude-code", "codex"],
        mode: "full",
        versions: { codex: "0.169.0", "claude-code": "2.1.328" },
        outcome: "skip",
        reasons: ["not run: codex → claude-code failed"],
        notes: [],
        seconds: 0,
      },
    ],
  });
  assert.match(lines[0]!, /^style\s+route\s+mode\s+versions\s+result\s+time\s+reason$/);
  assert.match(
    lines[2]!,
    /^interrupted\s+codex → claude-code\s+full\s+codex 0\.169\.0, claude-code 2\.1\.328\s+FAIL\s+1\.3 s\s+user sentinel u/,
  );
  assert.match(lines[3]!, /SKIP/);
  assert.equal(lines.at(-1), "0 passed, 1 failed, 1 skipped in 3 s");
});

test("certify without any harness on PATH skips every pair and exits 1 with one JSON document", () => {
  const empty = tempDir();
  const r = cliJson(["certify", "--structure-only", "--pairs", "codex:hermes"], { PATH: empty });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.json.ok, false);
  const results = r.json.results as { hops: string[]; outcome: string; reasons: string[] }[];
  assert.deepEqual(results.map((x) => x.hops.join(">")), ["codex>hermes", "codex>hermes>codex"]);
  assert.ok(results.every((x) => x.outcome === "skip"));
  assert.match(results[0]!.reasons.join(" "), /codex not found on PATH/);
});

test("a harness binary is found on PATH and its version read in a throwaway home", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "bin"));
  const fake = join(dir, "bin", "codex");
  writeFileSync(fake, '#!/bin/sh\necho "codex-cli 0.170.1"\n');
  chmodSync(fake, 0o755);
  assert.equal(findOnPath("codex", join(dir, "bin")), fake);
  const { reportedVersion } = await import("../lib/certify-kit/binaries.ts");
  assert.equal(
    await reportedVersion(fake, { PATH: "/usr/bin:/bin", HOME: "/nonexistent-user-home" }),
    "0.170.1",
  );
});

test("a harness that prints its version on stderr when stdin is no terminal (Pi 0.73.1) has it read from there; stdout wins", async () => {
  const dir = tempDir();
  const { reportedVersion } = await import("../lib/certify-kit/binaries.ts");
  const fake = (name: string, script: string) => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${script}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const env = { PATH: "/usr/bin:/bin", HOME: "/nonexistent-user-home" };
  assert.equal(
    await reportedVersion(fake("pi", "test -t 0 && echo 0.73.1 || echo 0.73.1 >&2"), env),
    "0.73.1",
  );
  assert.equal(await reportedVersion(fake("both", "echo 'warning 9.9.9' >&2; echo 1.2.3"), env), "1.2.3");
});

test("a sample's assistant sentinel is never words holding a tag, which a handoff makes inert on the way", () => {
  const sentinels = sampleSentinels([
    { role: "user", text: "TOOL: echo out-word" },
    { role: "assistant", text: "Plain first answer." },
    { role: "tool_call", text: "run_shell_command echo out-word" },
    { role: "tool", text: "out-word" },
    { role: "assistant", text: "Tool said: <untrusted_context>\nout-word\n</untrusted_context>" },
  ]);
  assert.equal(sentinels.assistant, "Plain first answer.");
});

test("--touching keeps the routes whose session starts in the named harness or is handed first into it", () => {
  const routes = certifyRoutes(
    { touching: "codex", styles: "exec,interactive,interrupted" },
    "full",
    { harnesses: [BUILTIN_HARNESSES["claude-code"], BUILTIN_HARNESSES.codex, BUILTIN_HARNESSES.hermes] },
  );
  assert.deepEqual(routes.map((r) => `${r.style}: ${r.hops.join(" > ")}`), [
    "exec: claude-code > codex > claude-code",
    "exec: codex > claude-code > codex",
    "exec: codex > codex",
    "exec: codex > hermes > codex",
    "exec: hermes > codex > hermes",
    "interactive: claude-code > codex > hermes",
    "interactive: codex > hermes > claude-code",
    "interrupted: codex > claude-code > hermes",
    "interrupted: codex > codex",
    "interrupted: hermes > codex > claude-code",
  ]);
  assert.throws(
    () => certifyRoutes({ touching: "vim" }, "full", builtinRegistry),
    /vim/,
  );
});

test("share K of N keeps every Nth exec route from K and the TUI routes seeded in every Nth harness from K", () => {
  const harnesses = ["claude-code", "codex", "hermes"];
  const plan = coveragePlan(["exec", "interactive", "interrupted"], harnesses, true);
  const line = (r: { style: string; hops: string[] }) => `${r.style}: ${r.hops.join(" > ")}`;
  const first = routesInShare(plan, harnesses, 0, 2);
  assert.deepEqual(first.filter((r) => r.style === "exec").map(line), [
    "exec: claude-code > claude-code",
    "exec: claude-code > hermes > claude-code",
    "exec: codex > codex",
    "exec: hermes > claude-code > hermes",
    "exec: hermes > hermes",
  ]);
  assert.deepEqual(routesInShare(plan, harnesses, 1, 2).filter((r) => r.style === "exec").map(line), [
    "exec: claude-code > codex > claude-code",
    "exec: codex > claude-code > codex",
    "exec: codex > hermes > codex",
    "exec: hermes > codex > hermes",
  ]);
  assert.deepEqual(first.filter((r) => r.style !== "exec").map(line), [
    "interactive: claude-code > codex > hermes",
    "interactive: hermes > claude-code > codex",
    "interrupted: claude-code > hermes > codex",
    "interrupted: claude-code > claude-code",
    "interrupted: hermes > codex > claude-code",
    "interrupted: hermes > hermes",
  ]);
  assert.deepEqual(routesInShare(plan, harnesses, 1, 2).filter((r) => r.style !== "exec").map(line), [
    "interactive: codex > hermes > claude-code",
    "interrupted: codex > claude-code > hermes",
    "interrupted: codex > codex",
  ]);
  assert.throws(
    () => routesInShare(plan, harnesses, 2, 2),
    /--share: expected K\/N with 0 <= K < N, got 2\/2/,
  );
});
