/**
 * The dated price table: estimated costs where the harness records none (Claude Code, Codex), computed here from
 * the raw fixture records and the vendors' list prices written below, never from the table under test; a model
 * the table lacks gets no cost and says so; a harness's own cost (Hermes) is never replaced.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { estimateCost, priceOf, PRICES_AS_OF } from "../lib/observe/prices.ts";
import { jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir("sb-prices-");
const none = (dir: string) => join(root, dir);
const homes = (claude: string, codex = none("no-codex"), hermes = none("no-hermes")) => [
  "--claude-home",
  claude,
  "--codex-home",
  codex,
  "--hermes-home",
  hermes,
];

interface ModelResponse {
  event_type: string;
  model?: string;
  input_tokens?: number;
  cost_usd?: number;
  cost_basis?: string;
  prices_as_of?: string;
}

test("the table is dated and prices ids as the harnesses and providers write them, never a neighbour's", () => {
  assert.match(PRICES_AS_OF, /^\d{4}-\d{2}-\d{2}$/);
  const sonnet45 = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
  for (
    const id of [
      "claude-sonnet-4-5",
      "claude-sonnet-4-5-20250929",
      "claude-sonnet-4-5@20250929",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "anthropic/claude-sonnet-4-5",
      "claude-sonnet-4-5[1m]",
    ]
  ) assert.deepEqual(priceOf(id), sonnet45, id);
  assert.deepEqual(priceOf("gpt-5-2025-08-07"), {
    input: 1.25,
    output: 10,
    cacheRead: 0.125,
    cacheWrite: 1.25,
  });
  assert.deepEqual(priceOf("claude-opus-4-20250514")?.input, 15, "Opus 4 is not priced as Opus 4.5");
  assert.deepEqual(priceOf("claude-opus-4-5-20251101")?.input, 5);
  for (
    const id of [
      "gpt-5.2",
      "gpt-5-pro",
      "claude-opus-4-9",
      "fake-model-1",
      "<synthetic>",
      "gpt-5.1-codex-ultra",
    ]
  ) {
    assert.equal(priceOf(id), undefined, `${id} must be unknown, not a neighbour's price`);
  }
  // One million of each at Haiku 4.5's $1 / $5 / $0.10 / $1.25.
  assert.equal(
    estimateCost("claude-haiku-4-5", { input: 1e6, output: 1e6, cacheRead: 1e6, cacheWrite: 1e6 }),
    1 + 5 + 0.1 + 1.25,
  );
  assert.equal(estimateCost("gpt-9", { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }), undefined);
});

test("events: each Claude response's cost is estimated from its raw token counts and marked with the table's date", async () => {
  const home = join(root, "claude");
  const seeded = seedClaudeHome(home, "edit-tool");
  // Opus 5.5 at $4 input, $20 output, $0.20 cache read, $5 cache write per million tokens.
  const expected: number[] = [];
  const seen = new Set<string>();
  for (
    const r of jsonLines(seeded.path) as {
      type?: string;
      message?: { id?: string; model?: string; usage?: Record<string, number> };
    }[]
  ) {
    const u = r.message?.usage;
    if (r.type !== "assistant" || !u || !r.message?.id || seen.has(r.message.id)) continue;
    seen.add(r.message.id);
    assert.equal(r.message.model, "claude-opus-5-5");
    expected.push(
      ((u.input_tokens ?? 0) * 4 + (u.output_tokens ?? 0) * 20 + (u.cache_read_input_tokens ?? 0) * 0.2 +
        (u.cache_creation_input_tokens ?? 0) * 5) / 1e6,
    );
  }
  assert.ok(expected.length > 0 && expected.every((c) => c > 0));
  const r = await runCliJson(["events", seeded.id, ...homes(home)]);
  assert.equal(r.code, 0, r.stderr);
  const priced = (r.json.events as ModelResponse[]).filter((e) =>
    e.event_type === "model_response" && e.cost_basis
  );
  assert.deepEqual(
    priced.map((e) => [e.cost_basis, e.prices_as_of]),
    expected.map(() => ["estimated", "2026-12-01"]),
  );
  priced.forEach((e, i) => assert.ok(Math.abs(e.cost_usd! - expected[i]!) < 1e-12, `response ${i}`));
  const usage = r.json.usage as { total: { cost_usd: number } };
  assert.ok(Math.abs(usage.total.cost_usd - expected.reduce((a, b) => a + b, 0)) < 1e-12);
});

test("events: Codex's session totals are priced at its one model's rates, cached input at the cached rate", async () => {
  const home = join(root, "codex");
  makeCodexHome(home);
  const thread = seedCodexThread(home, "0.169.0", "tool-call");
  const last = readFileSync(thread.path, "utf8").split("\n").filter((l) => l.includes('"token_count"'))
    .map((l) => (JSON.parse(l) as { payload: { info?: { total_token_usage?: Record<string, number> } } }))
    .map((x) => x.payload.info?.total_token_usage).filter((u) => u !== undefined).at(-1)!;
  // gpt-5.5 at $5 input, $0.50 cached input, $30 output per million tokens.
  const cached = last.cached_input_tokens ?? 0;
  const expected = ((last.input_tokens! - cached) * 5 + cached * 0.5 + last.output_tokens! * 30) / 1e6;
  const r = await runCliJson(["events", thread.id, "--from", "codex", ...homes(none("c"), home)]);
  assert.equal(r.code, 0, r.stderr);
  const [total] = (r.json.events as ModelResponse[]).filter((e) =>
    e.event_type === "model_response" && e.cost_basis
  );
  assert.deepEqual([total?.model, total?.cost_basis, total?.prices_as_of], [
    "gpt-5.5",
    "estimated",
    "2026-12-01",
  ]);
  assert.ok(Math.abs(total!.cost_usd! - expected) < 1e-12, `${total?.cost_usd} != ${expected}`);
});

test("a model the table does not have gets no cost, and events and usage say so", async () => {
  const home = join(root, "claude-unknown");
  const seeded = seedClaudeHome(home, "edit-tool");
  writeFileSync(
    seeded.path,
    readFileSync(seeded.path, "utf8").replaceAll("claude-opus-5-5", "claude-opus-9-9"),
  );
  const r = await runCliJson(["events", seeded.id, ...homes(home)]);
  assert.equal(r.code, 0, r.stderr);
  const responses = (r.json.events as ModelResponse[]).filter((e) => e.cost_basis);
  assert.ok(responses.length > 0);
  for (const e of responses) {
    assert.deepEqual([e.model, e.cost_basis, e.cost_usd], ["claude-opus-9-9", "unpriced", undefined]);
  }
  const usage = await runCliJson(["usage", ...homes(home)]);
  assert.deepEqual(usage.json.prices, {
    as_of: "2026-12-01",
    unpriced: { "claude-opus-9-9": responses.length },
  });
  assert.equal((usage.json.total as { cost_usd: number }).cost_usd, 0);
  const table = await runCli(["usage", ...homes(home)]);
  assert.match(
    table.stdout,
    new RegExp(
      `^no price for claude-opus-9-9 \\(${responses.length} responses\\): tokens counted, cost not$`,
      "m",
    ),
  );
});

test("Codex totals over two models are not priced (which model read which tokens is not recorded), and usage says so", async () => {
  const home = join(root, "codex-two-models");
  makeCodexHome(home);
  const thread = seedCodexThread(home, "0.169.0", "text-turns");
  // The second turn on another model, as /model between turns leaves it.
  const lines = readFileSync(thread.path, "utf8").split("\n");
  const second =
    lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes('"type":"turn_context"'))[1]![1];
  lines.slice(second).forEach((l, i) => (lines[second + i] = l.replaceAll('"gpt-5.5"', '"gpt-5.4"')));
  writeFileSync(thread.path, lines.join("\n"));
  const args = ["--from", "codex", ...homes(none("c3"), home)];
  const r = await runCliJson(["events", thread.id, ...args]);
  assert.equal(r.code, 0, r.stderr);
  const total = (r.json.events as (ModelResponse & { models?: string[] })[]).find((e) => e.cost_basis);
  assert.deepEqual([total?.cost_basis, total?.cost_usd, total?.models], ["unpriced", undefined, [
    "gpt-5.5",
    "gpt-5.4",
  ]]);
  const usage = await runCliJson(["usage", ...args]);
  assert.deepEqual(usage.json.prices, { as_of: "2026-12-01", unpriced: { "gpt-5.5 + gpt-5.4": 1 } });
});

test("Hermes's own recorded cost stands: it is never replaced by an estimate, even for a priced model", async () => {
  const home = join(root, "hermes");
  const path = seedHermesHome(home, "0.19.0", "tool-call");
  const db = new DatabaseSync(path);
  try {
    db.prepare("UPDATE sessions SET model = ?, actual_cost_usd = ?").run("claude-sonnet-4-5", 0.125);
  } finally {
    db.close();
  }
  const r = await runCliJson(["usage", ...homes(none("c2"), none("x2"), home), "--by", "model"]);
  assert.equal(r.code, 0, r.stderr);
  const groups = r.json.groups as Record<string, { cost_usd: number; estimated_cost_usd: number }>;
  assert.deepEqual(
    groups["claude-sonnet-4-5"] &&
      [groups["claude-sonnet-4-5"].cost_usd, groups["claude-sonnet-4-5"].estimated_cost_usd],
    [0.125, 0],
  );
});
