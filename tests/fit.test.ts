/**
 * Issue 33, fitting a long session to the target model's window (lib/fit): a generated multi-megabyte Claude
 * Code session with a sentinel in every prompt, tool output and reply, fitted for other harnesses. What the
 * model is sent is checked against the generated turns (not against lib/fit's own arithmetic): every prompt's
 * sentinel in the summary, the last turns verbatim and whole, no call apart from its result, and a hop back
 * giving the full history again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message, Session } from "../lib/ir/schema.ts";
import { BUILTIN_HARNESSES, builtinRegistry } from "../lib/harnesses/registry.ts";
import { fitSession } from "../lib/fit/fit.ts";
import { FitHistory } from "../lib/fit/history.ts";
import { tokenCounter } from "../lib/fit/tokens.ts";
import { FIT_THREAD_ID, isFitSummary } from "../lib/fit/marker.ts";
import { restoreFitted } from "../lib/fit/restore.ts";
import { holdMessages, type SessionStream, streamedMessages } from "../lib/ir/stream.ts";
import { PrefixSummaries, SUMMARY_LEVELS, summaryText, trimmed, turnsOf } from "../lib/fit/summary.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import { longSentinels, longSessionTurns, writeLongSession } from "../lib/certify-kit/long-session.ts";
import { runCli } from "./helpers/cli.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { tempDir } from "./helpers/tmp.ts";
import { spillMessages } from "../lib/ir/spill.ts";

const dir = tempDir("sb-fit-");
const SPEC = { bytes: 3_000_000, sessionId: "5e551011-0000-4000-8000-000000000001", cwd: dir };
const TURNS = longSessionTurns(SPEC);
const path = join(dir, "long.jsonl");
await writeLongSession(SPEC, path);
const claude = BUILTIN_HARNESSES["claude-code"];
const read = (): Promise<Session> => claude.store.read(path);

const textOf = (m: Message) => JSON.stringify(m.blocks);
/** Which turns' sentinel of `kind` the messages hold, by turn number. */
const turnsWith = (messages: readonly Message[], kind: "prompt" | "output" | "reply") => {
  const all = messages.map(textOf).join("\n");
  return [...Array(TURNS).keys()].filter((i) => all.includes(longSentinels(i)[kind]));
};

/** `session` fitted for Codex's GPT-5.5 in a window of `context` tokens. */
const fitForCodex = (session: SessionStream, context: number) =>
  fitSession(session, {
    mode: "auto",
    models: BUILTIN_HARNESSES.codex.conversation.models,
    model: "gpt-5.5",
    context,
  });

test("a session longer than the window is sent as a summary of every prompt and the last turns verbatim", async () => {
  const session = await read();
  assert.equal(session.messages.length, TURNS * 4, "the generated session reads as four messages a turn");
  const fitted = await fitForCodex(session, 200_000);
  assert.ok(fitted?.plan.fitted, "a 3 MB session is over a 200,000-token window");
  const [summary, ...kept] = fitted.session.messages as Message[];
  assert.ok(isFitSummary(summary!));
  const summaryText = textOf(summary!);
  for (let i = 0; i < TURNS; i++) {
    assert.ok(summaryText.includes(longSentinels(i).prompt) || i >= TURNS - kept.length / 4);
  }
  // The kept messages are the last ones of the original, whole turns, verbatim.
  assert.equal(kept.length % 4, 0, "kept from a prompt on");
  assert.ok(kept.length >= 4, "at least the last turn is kept verbatim");
  assert.deepEqual(kept, session.messages.slice(-kept.length));
  assert.deepEqual(
    turnsWith(kept, "output"),
    [...Array(kept.length / 4).keys()].map((k) => TURNS - kept.length / 4 + k),
  );
  // Every prompt reaches the model: the summarized ones in the summary, the rest verbatim.
  assert.deepEqual(turnsWith([summary!, ...kept], "prompt"), [...Array(TURNS).keys()]);
  // Tool outputs of summarized turns do not reach the model; they stay whole in the compacted thread.
  assert.deepEqual(turnsWith([summary!], "output"), []);
  const thread = fitted.session.threads.find((t) => t.id === FIT_THREAD_ID);
  assert.equal(thread?.kind, "compacted");
  assert.deepEqual([...thread!.messages, ...kept], session.messages);
  // What the model is sent, counted by OpenAI's own tokenizer (its blocks as JSON: more than the text), is
  // within the window, with room left.
  const tokens = countTokens([summary!, ...kept].map(textOf).join("\n"));
  assert.ok(tokens < 200_000 * 0.9, `${tokens} tokens sent into a 200,000-token window`);
});

test("a session that fits the window is returned as it was read", async () => {
  const session = await read();
  const fitted = await fitForCodex(session, 3_000_000);
  assert.equal(fitted?.session, session, "a window of 3,000,000 tokens takes the 3 MB session whole");
  assert.equal(fitted?.plan.fitted, undefined);
  assert.equal(
    await fitSession(session, {
      mode: "off",
      models: BUILTIN_HARNESSES.codex.conversation.models,
      context: 1_000,
    }),
    undefined,
  );
});

test("a cut inside a turn never separates a tool call from its result", async () => {
  const session = await read();
  // A budget smaller than the last turn: the cut must fall inside it.
  const fitted = await fitSession(session, {
    mode: 18_000,
    models: BUILTIN_HARNESSES["gemini-cli"].conversation.models,
    model: "gemini-2.5-pro",
  });
  const kept = (fitted!.session.messages as Message[]).slice(1);
  const calls = new Set(kept.flatMap((m) => m.blocks.flatMap((b) => (b.type === "tool_call" ? [b.id] : []))));
  const results = new Set(
    kept.flatMap((m) => m.blocks.flatMap((b) => (b.type === "tool_result" ? [b.callId] : []))),
  );
  assert.deepEqual([...results].sort(), [...calls].sort());
  assert.deepEqual(turnsWith([(fitted!.session.messages as Message[])[0]!, ...kept], "prompt"), [
    ...Array(TURNS).keys(),
  ]);
});

test("a hop back from a fitted session puts its full history back before fitting it again", async () => {
  const session = await read();
  const fitted = await fitForCodex(session, 200_000);
  const back = await restoreFitted(fitted!.session);
  assert.deepEqual(back.messages, session.messages);
  assert.deepEqual(back.threads, session.threads);
  const again = await fitSession(fitted!.session, {
    mode: "auto",
    models: claude.conversation.models,
    model: "claude-sonnet-4-6",
    context: 3_000_000,
  });
  assert.equal(again?.plan.restored, true);
  assert.deepEqual(again?.session.messages, session.messages, "a window that takes it whole gets all of it");
});

test("a streamed fitted session has its history put back as it is read, not held, the same as held", async () => {
  const session = await read();
  const fitted = await fitForCodex(session, 200_000);
  const held = fitted!.session.messages as Message[];
  let passes = 0;
  const streamed = {
    ...fitted!.session,
    messages: streamedMessages(async function* () {
      passes++;
      yield* held;
    }),
  };
  const back = await restoreFitted(streamed);
  assert.ok(!Array.isArray(back.messages), "the restored history is held");
  assert.deepEqual(await holdMessages(back.messages), session.messages);
  assert.deepEqual(await holdMessages(back.messages), session.messages, "a second pass");
  assert.deepEqual(back.threads, session.threads);
  assert.equal(passes, 3, "read once to find the summary, then once a pass");
  fitted!.release();
});

test("a huge prompt is trimmed in the summary with a marker saying how much was left out", () => {
  const prompt = `${"p".repeat(10_000)}`;
  const text = summaryText([{
    uid: "u",
    parentUid: null,
    role: "user",
    kind: "turn",
    blocks: [{ type: "text", text: prompt }],
  }], {
    model: "m",
    window: 1,
    pending: { openToolCalls: [], queuedInput: [], interruptedTurn: false },
  });
  assert.ok(text.includes(`${"p".repeat(4_000)} […6000 characters left out]`));
  assert.ok(!text.includes("p".repeat(4_001)));
  assert.equal(trimmed("short", 10), "short");
});

test("the window Codex's config.toml gives its model (model_context_window) is the one fitted to", async () => {
  const home = join(dir, "codex-home");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.toml"), 'model = "gpt-5.5"\nmodel_context_window = 150000\n');
  const prepared = await prepareConversion(await read(), BUILTIN_HARNESSES.codex, {
    registry: builtinRegistry,
    handshake: true,
    now: new Date("2026-12-04T00:00:00Z"),
    home,
  });
  assert.equal(prepared.fit?.window.tokens, 150_000);
  assert.equal(prepared.fit?.window.source, "target-config");
  const entry = prepared.report.entries.find((e) => e.code === "fitted-to-window");
  assert.match(entry?.detail ?? "", /window of 150,000 tokens \(from the target's configuration\)/);
  // The model is told in the handshake that it sees a summary.
  assert.match(prepared.options.handshake ?? "", /fitted-to-window/);
});

test("--fit and --context take a number of tokens in digits: anything else is bad usage, on one line", async () => {
  for (
    const [flag, word] of [["--fit", "lots"], ["--fit", "2e5"], ["--context", "200k"], ["--context", "0"]]
  ) {
    const r = await runCli(["convert", path, "--to", "codex", "-o", join(dir, "bad.jsonl"), flag!, word!]);
    assert.equal(r.code, 2, `${flag} ${word}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`${flag} takes`));
  }
});

test("convert says what the model will see when it fits a long session", async () => {
  const target = join(dir, "fitted.jsonl");
  const r = await runCli([
    "convert",
    path,
    "--to",
    "codex",
    "-o",
    target,
    "--context",
    "100000",
    "--codex-home",
    join(dir, "codex-empty"),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /fitted-to-window x\d+: the history \(about [\d,]+ tokens\) is longer than the model's window of 100,000 tokens \(from --context\)/,
  );
  assert.match(r.stderr, /and the last \d+ messages verbatim/);
  const written = readFileSync(target, "utf8");
  for (let i = 0; i < TURNS; i++) {
    assert.ok(written.includes(longSentinels(i).prompt), `prompt ${i} reaches the file`);
  }
});

test("inspect --to says what the target's model would see of the session, writing nothing", async () => {
  const r = await runCli([
    "inspect",
    path,
    "--to",
    "codex",
    "--context",
    "200000",
    "--codex-home",
    join(dir, "none"),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /into codex \(its own default model\): the history \(about [\d,]+ tokens\) is longer than the model's window of 200,000 tokens \(from --context\), so the model will see a summary of the first \d+ messages \(\d+ user prompts/,
  );
  const fits = await runCli(["inspect", path, "--to", "codex", "--context", "9000000", "--json"]);
  const fit =
    (JSON.parse(fits.stdout) as { fit: { window: { tokens: number }; fitted?: unknown; sees: string } }).fit;
  assert.equal(fit.window.tokens, 9_000_000);
  assert.equal(fit.fitted, undefined);
  assert.match(fit.sees, /fits the model's window of 9,000,000 tokens .*: it is sent whole/);
});

test("a handoff's dry run shows the fit in its plan and its command line carries --fit and --context", async () => {
  const home = join(dir, "codex-dry");
  makeCodexHome(home);
  const r = await runCli([
    "handoff",
    path,
    "--to",
    "codex",
    "--dry-run",
    "--fit",
    "auto",
    "--context",
    "100000",
    "--codex-home",
    home,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /fitted-to-window x\d+: .* window of 100,000 tokens \(from --context\)/);
  assert.match(r.stdout, /session-bridge handoff .* --fit auto --context 100000/);
});

test("a window too small for a full summary still gets every prompt, the turns' details left out first", async () => {
  const session = await read();
  const models = claude.conversation.models;
  const fitted = await fitSession(session, { mode: 2_000, models, model: "claude-sonnet-4-6" });
  const summary = (fitted!.session.messages as Message[])[0]!;
  const text = textOf(summary);
  assert.deepEqual(
    turnsWith([summary], "prompt"),
    [...Array(TURNS).keys()].slice(0, fitted!.plan.fitted!.summarizedPrompts),
  );
  assert.ok(!text.includes("ls -R step-0"), "tool calls are the first detail to go");
  assert.ok(!text.includes(longSentinels(0).reply), "then the conclusions");
});

test("a session of too many prompts for a line each lists the most recent ones in the window and counts the rest", async () => {
  const session = await read();
  const models = claude.conversation.models;
  const budget = 700;
  const fitted = await fitSession(session, { mode: budget, models, model: "claude-sonnet-4-6" });
  const summary = textOf((fitted!.session.messages as Message[])[0]!);
  const text = (fitted!.session.messages as Message[])[0]!.blocks.map((
    b,
  ) => (b.type === "text" ? b.text : "")).join("");
  // Within the budget at the fewest characters a token measured for Claude's models (2.35).
  assert.ok(text.length / 2.35 <= budget, `${text.length} characters for ${budget} tokens`);
  const left = Number(/The first (\d+) turns are too many to list within the window/.exec(summary)?.[1]);
  assert.ok(left > 0 && left < TURNS, `${left} of ${TURNS} turns left out of the list`);
  const listed = turnsWith([(fitted!.session.messages as Message[])[0]!], "prompt");
  assert.deepEqual(
    listed,
    [...Array(TURNS).keys()].slice(left),
    "the most recent prompts are the ones listed",
  );
});

test("the summary of every prefix, made from parts counted once, is the summary of that prefix made alone, and its count errs only high", async () => {
  const session = await read();
  const messages = (session.messages as Message[]).slice(0, 400);
  const context = { model: "gpt-5.5", window: 272_000, pending: session.pending };
  const estimate = (text: string) => Math.ceil(text.length / 3.9);
  for (const limits of SUMMARY_LEVELS) {
    const summaries = new PrefixSummaries(turnsOf(messages), context, limits, estimate);
    // Every cut, inside turns too (tool calls split from their results included: the summary must not care).
    for (let c = 1; c <= messages.length; c += 7) {
      const alone = summaryText(messages.slice(0, c), context, limits);
      assert.equal(summaries.text(c), alone, `cut ${c}`);
      assert.ok(
        summaries.tokens(c) >= estimate(alone),
        `cut ${c}: ${summaries.tokens(c)} < ${estimate(alone)}`,
      );
    }
  }
});

test("a session that gives every tool call the same id is still cut between turns, each result beside its own call", async () => {
  const session = await read();
  const same = "toolu_same";
  const messages = (session.messages as Message[]).map((m) => ({
    ...m,
    blocks: m.blocks.map((b) =>
      b.type === "tool_call" ? { ...b, id: same } : b.type === "tool_result" ? { ...b, callId: same } : b
    ),
  }));
  const fitted = await fitSession({ ...session, messages }, {
    mode: "auto",
    models: BUILTIN_HARNESSES["gemini-cli"].conversation.models,
    model: "gemini-2.5-pro",
    context: 120_000,
  });
  const kept = (fitted!.session.messages as Message[]).slice(1);
  assert.ok(kept.length > 1, `${kept.length} messages kept verbatim`);
  assert.ok(isPromptText(kept[0]!), "the cut falls before a prompt");
  assert.ok(textOf(kept.at(-1)!).includes(longSentinels(TURNS - 1).reply), "the last turn is kept whole");
});

const isPromptText = (m: Message) => m.role === "user" && m.blocks.every((b) => b.type === "text");

test("a streamed session is fitted as the held one is, its fitted-away messages read back from a spill file the release lets go", async () => {
  const session = await read();
  const opened = await claude.store.open(path, {
    limits: { maxRecordBytes: 64_000_000, streamFromBytes: 1 },
  });
  assert.ok(!Array.isArray(opened.messages), "the session is streamed");
  const request = {
    mode: "auto" as const,
    models: BUILTIN_HARNESSES.codex.conversation.models,
    model: "gpt-5.5",
  };
  const held = await fitSession(session, { ...request, context: 200_000 });
  const streamed = await fitSession(opened, { ...request, context: 200_000 });
  assert.ok(held?.plan.fitted && streamed?.plan.fitted);
  assert.deepEqual(streamed.plan, held.plan);
  assert.equal(JSON.stringify(streamed.session.messages), JSON.stringify(held.session.messages));
  const thread = (f: typeof held) => f.session.threads.find((t) => t.id === FIT_THREAD_ID)!;
  const fittedAway = [...thread(streamed).messages];
  assert.equal(fittedAway.length, held.plan.fitted.summarizedMessages);
  assert.equal(JSON.stringify(fittedAway), JSON.stringify([...thread(held).messages]));
  assert.equal(
    JSON.stringify([...thread(streamed).messages]),
    JSON.stringify(fittedAway),
    "read again, the same",
  );
  streamed.release();
  assert.throws(
    () => [...thread(streamed).messages],
    /spilled records were read after the spill was closed/,
  );
});

/** Message `i` of a long thread of plain turns. */
const plainMessage = (i: number): Message => ({
  uid: `m${i}`,
  parentUid: i ? `m${i - 1}` : null,
  role: i % 2 ? "assistant" : "user",
  kind: "turn",
  blocks: [{ type: "text", text: `message ${i} `.repeat(40) }],
});

test("fitting holds only the most recent messages a cut could keep, however long the thread", () => {
  const estimate = tokenCounter("openai");
  const history = new FitHistory(estimate, 1_000, 1_000);
  const message = plainMessage;
  for (let i = 0; i < 5_000; i++) history.add(message(i));
  const held = history.messagesFrom(history.recentFrom);
  const after = (from: number) => {
    let sum = 0;
    for (let i = from; i < history.length; i++) sum += history.counts.get(i);
    return sum;
  };
  assert.ok(held.length < 100, `${held.length} of 5,000 messages held`);
  assert.ok(
    after(history.recentFrom + 1) <= 1_000,
    "every message with at most 1,000 tokens after it is held",
  );
  assert.ok(
    after(history.recentFrom) > 1_000,
    "the message before the first held had more than that after it",
  );
  assert.equal(held.at(-1)!.uid, "m4999");
  assert.throws(() => history.messagesFrom(history.recentFrom - 1), /is not held/);
});

test("fitting a streamed thread holds none of its messages: the most recent are read back from its spill", () => {
  const spill = spillMessages(tempDir());
  const history = new FitHistory(tokenCounter("openai"), 1_000, 1_000, spill);
  const messages = Array.from({ length: 5_000 }, (_, i) => plainMessage(i));
  for (const m of messages) history.add(m);
  assert.ok(history.length - history.recentFrom < 100, "only the most recent could be kept");
  assert.deepEqual(history.messagesFrom(history.recentFrom), messages.slice(history.recentFrom));
  assert.deepEqual(history.messagesFrom(history.length - 1), [messages.at(-1)]);
  assert.throws(() => history.messagesFrom(history.recentFrom - 1), /is not held/);
  spill.close();
  assert.throws(() => history.messagesFrom(history.recentFrom), /after the spill was closed/);
});

test("a thread of many long prompts keeps each part only as far as a summary that can still fit shows it, and makes the same summaries", () => {
  // 400 turns of a 2,000-character prompt, a call with its multi-line result and a 2,000-character conclusion:
  // their prompts alone are over a 20,000-token room at the two roomiest levels, within it at the third.
  const messages: Message[] = [];
  const add = (m: Omit<Message, "uid" | "parentUid">) =>
    messages.push({ uid: `m${messages.length}`, parentUid: messages.at(-1)?.uid ?? null, ...m } as Message);
  for (let i = 0; i < 400; i++) {
    add({ role: "user", kind: "turn", blocks: [{ type: "text", text: `prompt ${i} `.repeat(200) }] });
    const call = {
      type: "tool_call",
      id: `c${i}`,
      name: "Bash",
      input: { command: `run ${i}\n${"x".repeat(500)}` },
    };
    add({ role: "assistant", kind: "turn", blocks: [call as Message["blocks"][number]] });
    const output = `line one of ${i} `.repeat(30) + "\nline two";
    add({
      role: "user",
      kind: "turn",
      blocks: [{
        type: "tool_result",
        callId: `c${i}`,
        isError: false,
        content: [{ type: "text", text: output }],
      }],
    });
    add({ role: "assistant", kind: "turn", blocks: [{ type: "text", text: `concluded ${i} `.repeat(150) }] });
  }
  const context = {
    model: "gpt-5.5",
    window: 30_000,
    pending: { openToolCalls: [], queuedInput: [], interruptedTurn: false },
  };
  const history = new FitHistory(tokenCounter("openai"), 2 * 20_000, 20_000);
  for (const m of messages) history.add(m);
  const { levels, turns } = history.told;
  assert.deepEqual(levels, SUMMARY_LEVELS.slice(2), "the two roomiest levels are given up");
  assert.ok(
    turns.every((t) => t.prompt!.head.length === 250),
    "each prompt kept as far as the third level shows it",
  );
  const whole = turnsOf(messages);
  const estimate = (text: string) => Math.ceil(text.length / 3.9);
  for (const limits of levels) {
    const narrowed = new PrefixSummaries(history.told, context, limits, estimate);
    const full = new PrefixSummaries(whole, context, limits, estimate);
    for (let c = history.recentFrom; c <= messages.length; c++) {
      assert.equal(narrowed.text(c), full.text(c), `cut ${c}`);
      assert.equal(narrowed.tokens(c), full.tokens(c), `cut ${c}`);
    }
  }
});
