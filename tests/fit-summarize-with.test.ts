/**
 * Issue 33, `--summarize-with HARNESS` (lib/fit/summarizer.ts, lib/engines/summarizer.ts): a fitted session's
 * summary written by a harness's model. Here the model is a stand-in function (the live row, with the real
 * Codex binary against the fake Responses server, is in tests/fit-live.test.ts): what it is asked
 * (every prompt of the summarized turns, within its window), where its answer goes, what was pending appended,
 * and an answer too long for the room the cut left replaced by session-bridge's own summary, reported.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import type { Message, Session } from "../lib/ir/schema.ts";
import { BUILTIN_HARNESSES, builtinRegistry, findHarness } from "../lib/harnesses/registry.ts";
import { engineSummarizer } from "../lib/engines/summarizer.ts";
import { fitSession } from "../lib/fit/fit.ts";
import { FIT_SUMMARY_HEADER, isFitSummary } from "../lib/fit/marker.ts";
import { fitEntries } from "../lib/fit/report.ts";
import type { Summarizer } from "../lib/fit/summarizer.ts";
import { longSentinels, longSessionTurns, writeLongSession } from "../lib/certify-kit/long-session.ts";
import { type CliResult, runCli } from "./helpers/cli.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir("sb-fit-summarize-");
const SPEC = { bytes: 3_000_000, sessionId: "5e551011-0000-4000-8000-000000000021", cwd: dir };
const TURNS = longSessionTurns(SPEC);
const path = join(dir, "long.jsonl");
await writeLongSession(SPEC, path);
const read = (): Promise<Session> => BUILTIN_HARNESSES["claude-code"].store.read(path);
const models = BUILTIN_HARNESSES["gemini-cli"].conversation.models;
const REQUEST = { mode: "auto", models, model: "gemini-2.5-pro", context: 120_000 } as const;

/** A stand-in model: records what it is asked and answers `answer`. */
function standIn(answer: string, window = 200_000, promptBytes?: number) {
  const asked: string[] = [];
  const summarizer: Summarizer = {
    name: "codex",
    window,
    ...(promptBytes !== undefined ? { promptBytes } : {}),
    summarize: (prompt) => {
      asked.push(prompt);
      return Promise.resolve({ text: answer });
    },
  };
  return { summarizer, asked };
}

const textOf = (m: Message) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");

test("the model's answer is the summary the target's model is sent, under session-bridge's header", async () => {
  const { summarizer, asked } = standIn("MODEL-SUMMARY-SENTINEL: the user refactored the listing.");
  const fitted = await fitSession(await read(), { ...REQUEST, summarizer });
  const summary = (fitted!.session.messages as Message[])[0]!;
  assert.ok(isFitSummary(summary), "a hop back recognises it as a fitted summary");
  assert.ok(textOf(summary).startsWith(FIT_SUMMARY_HEADER));
  assert.match(textOf(summary), /MODEL-SUMMARY-SENTINEL/);
  assert.match(textOf(summary), /summarized here by codex/);
  assert.equal(asked.length, 1, "the model is asked once");
  assert.deepEqual(fitted!.plan.fitted!.author, { by: "model", harness: "codex" });
  assert.match(fitEntries(fitted!.plan)[0]!.detail, /a summary written by codex of the first/);
});

test("the summarizing model is asked about every prompt of the summarized turns, within its own window", async () => {
  for (const window of [200_000, 40_000]) {
    const { summarizer, asked } = standIn("short summary", window);
    const fitted = await fitSession(await read(), { ...REQUEST, summarizer });
    const summarized = fitted!.plan.fitted!.summarizedPrompts;
    assert.ok(summarized > 1, `${summarized} prompts summarized`);
    const prompt = asked[0]!;
    const missing = [...Array(summarized).keys()].filter((i) => !prompt.includes(longSentinels(i).prompt));
    assert.deepEqual(missing, [], `every summarized prompt is asked about (window ${window})`);
    assert.ok(!prompt.includes(longSentinels(TURNS - 1).prompt), "the turns kept verbatim are not");
    // Within the window at the lowest characters per token measured (2.35), as lib/fit estimates any family.
    assert.ok(prompt.length / 2.35 < window, `${prompt.length} characters asked of a ${window}-token window`);
    assert.match(prompt, /Summarize this conversation/);
  }
});

test("what was pending when the session stopped is appended to the model's summary", async () => {
  const session = await read();
  const pending = {
    ...session.pending,
    queuedInput: [{ text: "QUEUED-SENTINEL please also update the docs" }],
  };
  const { summarizer } = standIn("the model forgot the queue");
  const fitted = await fitSession({ ...session, pending }, { ...REQUEST, summarizer });
  const summary = textOf((fitted!.session.messages as Message[])[0]!);
  assert.match(
    summary,
    /the model forgot the queue[\s\S]*Pending when the session stopped[\s\S]*QUEUED-SENTINEL/,
  );
});

test("an answer longer than the room beside the kept turns is not sent: session-bridge's summary is, and the report says why", async () => {
  const { summarizer } = standIn("word ".repeat(400_000));
  const fitted = await fitSession(await read(), { ...REQUEST, summarizer });
  const summary = textOf((fitted!.session.messages as Message[])[0]!);
  assert.ok(!summary.includes("word word"), "the answer is not in the summary");
  assert.ok(summary.includes(longSentinels(0).prompt), "session-bridge's summary, with every prompt, is");
  const entries = fitEntries(fitted!.plan);
  const notUsed = entries.find((e) => e.code === "summary-not-used");
  assert.match(notUsed!.detail, /codex's summary came to about [\d,]+ tokens, over the [\d,]+ left/);
});

test("a plan asks no model: it says which harness would write the summary", async () => {
  const { summarizer, asked } = standIn("never asked");
  const { summarize: _, ...planned } = summarizer;
  const fitted = await fitSession(await read(), { ...REQUEST, summarizer: planned });
  assert.equal(asked.length, 0);
  assert.match(
    fitEntries(fitted!.plan)[0]!.detail,
    /summary \(to be written by codex when the session is written\)/,
  );
});

/** The long session converted into `to` as `out` (in the test's folder), with `flags`. */
const convert = (to: string, out: string, flags: string[], env: Record<string, string> = {}) =>
  runCli(["convert", path, "--to", to, "-o", join(dir, out), "--context", "120000", ...flags], env);

/** A failure on one stderr line, with exit `code`, saying `words`. */
function failsOnOneLine(r: CliResult, code: number, words: RegExp): void {
  assert.equal(r.code, code, r.stderr);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, words);
}

test("--summarize-with names a harness that can run a turn without keeping it or delete it after, else it is bad usage on one line", async () => {
  failsOnOneLine(
    await convert("codex", "out.jsonl", ["--summarize-with", "copilot-cli"]),
    2,
    /copilot-cli can neither run a turn without keeping it nor delete one from its list; one of claude-code, codex, hermes, gemini-cli, opencode, pi can/,
  );
  failsOnOneLine(await convert("codex", "out.jsonl", ["--summarize-with", "nowhere"]), 2, /nowhere/);
});

test("a summarizer whose binary is not there is bad usage, one line, nothing written", async () => {
  const flags = ["--summarize-with", "codex"];
  const r = await convert("gemini-cli", "not-written.jsonl", flags, { PATH: join(dir, "no-such-bin") });
  failsOnOneLine(r, 2, /--summarize-with codex: cannot run codex/);
  assert.equal(existsSync(join(dir, "not-written.jsonl")), false);
});

test("a summarizer whose model fails fails the conversion with one line saying why, nothing written", async () => {
  // A codex that fails as the real one does when its account is out of quota: an error on stderr, exit 1.
  const bin = join(dir, "failing-bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "codex"), "#!/bin/sh\necho 'ERROR: quota exceeded' >&2\nexit 1\n", { mode: 0o755 });
  const flags = ["--summarize-with", "codex"];
  const r = await convert("gemini-cli", "not-written-either.jsonl", flags, { PATH: `${bin}:/usr/bin:/bin` });
  failsOnOneLine(
    r,
    1,
    /--summarize-with codex: its model wrote no summary \(ERROR: quota exceeded\); nothing was written/,
  );
  assert.equal(existsSync(join(dir, "not-written-either.jsonl")), false);
});

test("a handoff's dry run asks no model: its plan names who would write the summary and its command line carries --summarize-with", async () => {
  const home = join(dir, "codex-dry");
  makeCodexHome(home);
  // No codex on PATH: a dry run that ran it would fail.
  const r = await runCli(
    [
      "handoff",
      path,
      "--to",
      "codex",
      "--dry-run",
      "--context",
      "100000",
      "--summarize-with",
      "pi",
      "--codex-home",
      home,
    ],
    { PATH: join(dir, "no-such-bin") },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /a summary \(to be written by pi when the session is written\) of the first/);
  assert.match(r.stdout, /session-bridge handoff .* --context 100000 --summarize-with pi/);
});

test("--summarize-with the target that compacts on resume writes the session whole for its own compaction, and says so", async () => {
  const r = await convert("copilot-cli", "copilot.jsonl", ["--summarize-with", "copilot-cli"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /compacted-by-target x1: .* written whole, as --summarize-with copilot-cli asked: copilot-cli compacts it itself/,
  );
  const written = readFileSync(join(dir, "copilot.jsonl"), "utf8");
  assert.ok(!written.includes(FIT_SUMMARY_HEADER), "no summary of ours");
  const lost = [...Array(TURNS).keys()].filter((i) => !written.includes(longSentinels(i).output));
  assert.deepEqual(lost, [], "every turn's tool output is written");
  // Asked to summarize for a target it is not, a harness that compacts only on resume, and keeps every turn, is
  // refused.
  failsOnOneLine(
    await convert("codex", "x.jsonl", ["--summarize-with", "copilot-cli"]),
    2,
    /copilot-cli can neither .* \(or, into itself, hermes or copilot-cli, which compacts on resume\)/,
  );
});

test("a summarizer that keeps the summarizing turn's conversation, its own delete failing, is reported by id and the summary still used", async () => {
  // A hermes as 0.19.0 answers: quiet chat prints the answer and the session id; its delete finds nothing.
  const bin = join(dir, "keeping-bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, "hermes"),
    '#!/bin/sh\nif [ "$1" = sessions ]; then echo "Session \'20261204_1_abc\' not found."; exit 0; fi\n' +
      "echo 'HERMES-SUMMARY-SENTINEL'; echo 'session_id: 20261204_1_abc'\n",
    { mode: 0o755 },
  );
  const flags = ["--summarize-with", "hermes"];
  const r = await convert("codex", "kept.jsonl", flags, { PATH: `${bin}:/usr/bin:/bin` });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /summarizer-conversation-kept x1: hermes kept conversation 20261204_1_abc, which could not be deleted \(Session '20261204_1_abc' not found\.\)/,
  );
  assert.match(readFileSync(join(dir, "kept.jsonl"), "utf8"), /HERMES-SUMMARY-SENTINEL/);
});

test("a summarizing model whose window cannot take a line a prompt is asked about the most recent prompts, the rest counted", async () => {
  // A window of 33,000 tokens leaves 1,000 after its margin: fewer than a line for each summarized prompt.
  const { summarizer, asked } = standIn("short summary", 33_000);
  const fitted = await fitSession(await read(), { ...REQUEST, summarizer });
  const summarized = fitted!.plan.fitted!.summarizedPrompts;
  const material = /<conversation>\n([\s\S]*)\n<\/conversation>/.exec(asked[0]!)![1]!;
  assert.ok(material.length / 2.35 <= 1_000, `${material.length} characters for 1,000 tokens`);
  const unlisted = Number(/The first (\d+) turns are too many to list within the window/.exec(material)?.[1]);
  assert.ok(unlisted > 0, "some turns are only counted");
  const listed = [...Array(summarized).keys()].filter((i) => material.includes(longSentinels(i).prompt));
  assert.deepEqual(
    listed,
    [...Array(summarized).keys()].slice(unlisted),
    "the most recent prompts are listed",
  );
});

test("a summarizer whose binary takes its prompt as one argument is asked within the argument's limit, every summarized prompt still in it", async () => {
  const unbounded = standIn("short summary");
  await fitSession(await read(), { ...REQUEST, summarizer: unbounded.summarizer });
  // Half what the window alone allows (an argument holds 131,071 bytes; this session's summary is shorter).
  const limit = Math.floor(Buffer.byteLength(unbounded.asked[0]!) / 2);
  const { summarizer, asked } = standIn("short summary", 200_000, limit);
  const fitted = await fitSession(await read(), { ...REQUEST, summarizer });
  const prompt = asked[0]!;
  assert.ok(Buffer.byteLength(prompt) <= limit, `${Buffer.byteLength(prompt)} bytes`);
  const summarized = fitted!.plan.fitted!.summarizedPrompts;
  const missing = [...Array(summarized).keys()].filter((i) => !prompt.includes(longSentinels(i).prompt));
  assert.deepEqual(missing, [], "every summarized prompt is asked about");
});

test("the summarizers whose binary takes the prompt as one argument are asked within it: a 70 MB session's summary no longer fails to start (E2BIG)", async () => {
  const place = { env: { PATH: "/usr/bin:/bin" }, cwd: dir };
  const limits: Record<string, number | undefined> = {};
  for (const name of ["claude-code", "codex", "gemini-cli", "hermes", "opencode", "pi"]) {
    const summarizer = await engineSummarizer(findHarness(builtinRegistry, name), builtinRegistry, place);
    limits[name] = summarizer.promptBytes;
  }
  // Linux's MAX_ARG_STRLEN (131,072 with the NUL), less the flag the prompt is joined to; stdin has no limit.
  assert.deepEqual(limits, {
    "claude-code": 131_071,
    codex: 131_071,
    "gemini-cli": 131_062,
    hermes: 131_063,
    opencode: undefined,
    pi: undefined,
  });
});
