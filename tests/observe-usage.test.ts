/**
 * `session-bridge usage` over real captured stores of all three harnesses, against totals computed here from
 * the raw records (Claude's JSONL, Codex's token_count events, Hermes's sessions table), not through the readers.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir("sb-usage-");
const [claudeHome, codexHome, hermesHome] = [join(root, "claude"), join(root, "codex"), join(root, "hermes")];
const claude = ["edit-tool", "plain-text"].map((name) => seedClaudeHome(claudeHome, name));
makeCodexHome(codexHome);
const codex = ["tool-call", "text-turns"].map((name) => seedCodexThread(codexHome, "0.169.0", name));
const hermesDb = seedHermesHome(hermesHome, "0.19.0", "tool-call");
const homes = ["--claude-home", claudeHome, "--codex-home", codexHome, "--hermes-home", hermesHome];

interface Totals {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}
const zero = (): Totals => ({ input_tokens: 0, output_tokens: 0, cost_usd: 0 });
const add = (a: Totals, b: Totals): Totals => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
  cost_usd: a.cost_usd + b.cost_usd,
});

/** Claude writes a response's usage on each record it splits the response into: once per message id. */
function claudeTotals(path: string): Totals {
  const byMessage = new Map<string, Record<string, number>>();
  for (
    const r of jsonLines(path) as {
      type?: string;
      message?: { id?: string; usage?: Record<string, number> };
    }[]
  ) {
    if (r.type === "assistant" && r.message?.id && r.message.usage) {
      byMessage.set(r.message.id, r.message.usage);
    }
  }
  let t = zero();
  for (const u of byMessage.values()) {
    t = add(t, {
      input_tokens: (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) +
        (u.cache_creation_input_tokens ?? 0),
      output_tokens: u.output_tokens ?? 0,
      cost_usd: 0,
    });
  }
  return t;
}

/** Codex's token_count events carry running totals: the last one is the session's. */
function codexTotals(path: string): Totals {
  const counts = readFileSync(path, "utf8").split("\n").filter((l) => l.includes('"token_count"')).map((l) =>
    JSON.parse(l) as { payload: { info?: { total_token_usage?: Record<string, number> } } }
  ).map((r) => r.payload.info?.total_token_usage).filter((u) => u !== undefined);
  const last = counts.at(-1);
  if (!last) return zero();
  return {
    input_tokens: last.input_tokens! + (last.cache_write_input_tokens ?? 0),
    output_tokens: last.output_tokens!,
    cost_usd: 0,
  };
}

function hermesTotals(path: string): Totals {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare(
      `SELECT SUM(input_tokens + cache_read_tokens + cache_write_tokens) AS i, SUM(output_tokens) AS o,
              SUM(COALESCE(actual_cost_usd, estimated_cost_usd, 0)) AS c FROM sessions`,
    ).get()!;
    return { input_tokens: Number(row.i), output_tokens: Number(row.o), cost_usd: Number(row.c) };
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
  assert.deepEqual(r.json.groups, expected);
  assert.deepEqual(r.json.total, Object.values(expected).reduce(add, zero()));
  assert.equal(r.json.sessions, claude.length + codex.length + 1);
});

test("usage --from codex counts only Codex; --by session has one row per session", async () => {
  const only = await runCliJson(["usage", ...homes, "--from", "codex"]);
  assert.deepEqual(only.json.total, expected.codex);
  const bySession = await runCliJson(["usage", ...homes, "--by", "session"]);
  const groups = bySession.json.groups as Record<string, Totals>;
  for (const s of codex) assert.deepEqual(groups[`codex:${s.id}`], codexTotals(s.path));
  for (const s of claude) {
    const t = claudeTotals(s.path);
    if (t.output_tokens) assert.deepEqual(groups[`claude-code:${s.id}`], t);
  }
});

test("usage --since after every session counts nothing; --by day sums to the same total", async () => {
  const later = await runCliJson(["usage", ...homes, "--since", "2999-01-01"]);
  assert.deepEqual(later.json.total, zero());
  const byDay = await runCliJson(["usage", ...homes, "--by", "day"]);
  const days = Object.values(byDay.json.groups as Record<string, Totals>).reduce(add, zero());
  assert.deepEqual(days, Object.values(expected).reduce(add, zero()));
});

test("usage prints a table with a total row; a bad --by or --since is a usage error (exit 2)", async () => {
  const r = await runCli(["usage", ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const total = Object.values(expected).reduce(add, zero());
  assert.match(r.stdout, new RegExp(`^total\\s+${total.input_tokens}\\s+${total.output_tokens}`, "m"));
  assert.equal((await runCli(["usage", ...homes, "--by", "week"])).code, 2);
  assert.equal((await runCli(["usage", ...homes, "--since", "yesterday-ish"])).code, 2);
});
