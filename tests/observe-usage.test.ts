/**
 * `session-bridge usage` over real captured stores of all three harnesses, against totals computed here from
 * the raw records (Claude's JSONL, Codex's token_count events, Hermes's sessions table), not through the readers.
 * Claude Code and Codex record no cost: theirs is estimated here from the raw token counts and the list prices
 * written below (those of lib/observe/prices.ts's table of 2026-12-01), Hermes's is the one it recorded.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir("sb-usage-");
const [claudeHome, codexHome, hermesHome] = [join(root, "claude"), join(root, "codex"), join(root, "hermes")];
const claude = ["edit-tool", "plain-text"].map((name) => seedClaudeHome(claudeHome, name));
makeCodexHome(codexHome);
const codex = ["tool-call", "text-turns"].map((name) => seedCodexThread(codexHome, "0.169.0", name));
const hermesDb = seedHermesHome(hermesHome, "0.19.0", "tool-call");
const homes = homeFlags({ "claude-code": claudeHome, codex: codexHome, hermes: hermesHome }, root);

interface Totals {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  estimated_cost_usd: number;
}
const zero = (): Totals => ({ input_tokens: 0, output_tokens: 0, cost_usd: 0, estimated_cost_usd: 0 });
const add = (a: Totals, b: Totals): Totals => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
  cost_usd: a.cost_usd + b.cost_usd,
  estimated_cost_usd: a.estimated_cost_usd + b.estimated_cost_usd,
});

/** Dollars per million tokens: uncached input, output, cache read, cache write (the vendors' list prices). */
const LIST_PRICES: Record<string, [number, number, number, number]> = {
  "claude-opus-5-5": [4, 20, 0.2, 5],
  "claude-sonnet-4": [3, 15, 0.3, 3.75],
  "gpt-5.5": [5, 30, 0.5, 5],
};
function estimate(model: string, uncached: number, output: number, cacheRead: number, cacheWrite: number) {
  const price = LIST_PRICES[model.replace(/-\d{8}$/, "")];
  assert.ok(price, `the test has no list price for ${model}`);
  return (uncached * price[0] + output * price[1] + cacheRead * price[2] + cacheWrite * price[3]) / 1e6;
}

/** Tokens exactly; dollars to a billionth (the same sums, added in another order). */
function assertTotals(actual: unknown, expected: Totals, label = ""): void {
  const rounded = (t: Totals) => ({
    ...t,
    cost_usd: Math.round(t.cost_usd * 1e9),
    estimated_cost_usd: Math.round(t.estimated_cost_usd * 1e9),
  });
  assert.deepEqual(rounded(actual as Totals), rounded(expected), label);
}

/** Claude writes a response's usage on each record it splits the response into: once per message id. */
function claudeTotals(path: string): Totals {
  const byMessage = new Map<string, { model: string; usage: Record<string, number> }>();
  for (
    const r of jsonLines(path) as {
      type?: string;
      message?: { id?: string; model?: string; usage?: Record<string, number> };
    }[]
  ) {
    if (r.type === "assistant" && r.message?.id && r.message.usage && r.message.model) {
      byMessage.set(r.message.id, { model: r.message.model, usage: r.message.usage });
    }
  }
  let t = zero();
  for (const { model, usage: u } of byMessage.values()) {
    const [input, output] = [u.input_tokens ?? 0, u.output_tokens ?? 0];
    const [read, write] = [u.cache_read_input_tokens ?? 0, u.cache_creation_input_tokens ?? 0];
    if (!input && !output && !read && !write) continue;
    const cost = estimate(model, input, output, read, write);
    t = add(t, {
      input_tokens: input + read + write,
      output_tokens: output,
      cost_usd: cost,
      estimated_cost_usd: cost,
    });
  }
  return t;
}

/** Codex's token_count events carry running totals: the last one is the session's. */
function codexTotals(path: string): Totals {
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l.trim());
  const counts = lines.filter((l) => l.includes('"token_count"')).map((l) =>
    JSON.parse(l) as { payload: { info?: { total_token_usage?: Record<string, number> } } }
  ).map((r) => r.payload.info?.total_token_usage).filter((u) => u !== undefined);
  const models = new Set(
    lines.map((l) => JSON.parse(l) as { type: string; payload: { model?: string } })
      .filter((r) => r.type === "turn_context" && r.payload.model).map((r) => r.payload.model!),
  );
  assert.equal(models.size, 1, "one model priced the session's totals");
  const last = counts.at(-1);
  if (!last) return zero();
  // Codex's input_tokens counts the cached ones too; cache writes come on top.
  const [cached, write] = [last.cached_input_tokens ?? 0, last.cache_write_input_tokens ?? 0];
  const cost = estimate([...models][0]!, last.input_tokens! - cached, last.output_tokens!, cached, write);
  return {
    input_tokens: last.input_tokens! + write,
    output_tokens: last.output_tokens!,
    cost_usd: cost,
    estimated_cost_usd: cost,
  };
}

function hermesTotals(path: string): Totals {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare(
      `SELECT SUM(input_tokens + cache_read_tokens + cache_write_tokens) AS i, SUM(output_tokens) AS o,
              SUM(COALESCE(actual_cost_usd, estimated_cost_usd, 0)) AS c FROM sessions`,
    ).get()!;
    return {
      input_tokens: Number(row.i),
      output_tokens: Number(row.o),
      cost_usd: Number(row.c),
      estimated_cost_usd: 0,
    };
  } finally {
    db.close();
  }
}

const expected = {
  "claude-code": claude.map((s) => claudeTotals(s.path)).reduce(add, zero()),
  codex: codex.map((s) => codexTotals(s.path)).reduce(add, zero()),
  hermes: hermesTotals(hermesDb),
};

test("usage over real stores of every harness equals the totals of their raw records, by harness", async () => {
  for (const t of Object.values(expected)) assert.ok(t.output_tokens > 0, "every fixture recorded usage");
  const r = await runCliJson(["usage", ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const groups = r.json.groups as Record<string, Totals>;
  assert.deepEqual(Object.keys(groups).sort(), Object.keys(expected).sort());
  for (const [name, t] of Object.entries(expected)) assertTotals(groups[name], t, name);
  assertTotals(r.json.total, Object.values(expected).reduce(add, zero()));
  assert.ok(expected["claude-code"].estimated_cost_usd > 0 && expected.codex.estimated_cost_usd > 0);
  assert.deepEqual(r.json.prices, { as_of: "2026-12-01", unpriced: {} });
  assert.equal(r.json.sessions, claude.length + codex.length + 1);
});

test("usage --from codex counts only Codex; --by session has one row per session", async () => {
  const only = await runCliJson(["usage", ...homes, "--from", "codex"]);
  assertTotals(only.json.total, expected.codex);
  const bySession = await runCliJson(["usage", ...homes, "--by", "session"]);
  const groups = bySession.json.groups as Record<string, Totals>;
  for (const s of codex) assertTotals(groups[`codex:${s.id}`], codexTotals(s.path));
  for (const s of claude) {
    const t = claudeTotals(s.path);
    if (t.output_tokens) assertTotals(groups[`claude-code:${s.id}`], t);
  }
});

test("usage --since after every session counts nothing; --by day sums to the same total", async () => {
  const later = await runCliJson(["usage", ...homes, "--since", "2999-01-01"]);
  assertTotals(later.json.total, zero());
  const byDay = await runCliJson(["usage", ...homes, "--by", "day"]);
  const days = Object.values(byDay.json.groups as Record<string, Totals>).reduce(add, zero());
  assertTotals(days, Object.values(expected).reduce(add, zero()));
});

test("usage prints a table with a total row; a bad --by or --since is a usage error (exit 2)", async () => {
  const r = await runCli(["usage", ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const total = Object.values(expected).reduce(add, zero());
  assert.match(
    r.stdout,
    new RegExp(
      `^total\\s+${total.input_tokens}\\s+${total.output_tokens}\\s+\\$${total.cost_usd.toFixed(4)}\\*$`,
      "m",
    ),
  );
  assert.match(r.stdout, /^codex\s+\d+\s+\d+\s+\$\d+\.\d{4}\*$/m, "an estimated cost is marked");
  assert.match(r.stdout, /^hermes\s+\d+\s+\d+[^*\n]*$/m, "a recorded cost is not");
  assert.match(
    r.stdout,
    new RegExp(
      `^\\* includes \\$${total.estimated_cost_usd.toFixed(4)} estimated from the price table of 2026-12-01`,
      "m",
    ),
  );
  assert.equal((await runCli(["usage", ...homes, "--by", "week"])).code, 2);
  assert.equal((await runCli(["usage", ...homes, "--since", "yesterday-ish"])).code, 2);
});
