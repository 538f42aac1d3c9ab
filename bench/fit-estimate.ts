/**
 * How far lib/fit/tokens.ts's estimate is from what the providers counted: over every captured fixture a
 * harness reads, each request's input tokens (uncached, cache read and cache write, as the harness recorded
 * them) less the previous request's are the tokens of the messages added in between; the estimate of those same
 * messages is set against it. Differences cancel the harness's system prompt and tool schemas, which are sent
 * with every request and are no part of the session. Prints, per token family, the requests compared, the
 * characters per token measured and the estimate's error (weighted by size, and the median per request).
 *
 * OpenAI's fixtures record usage per thread, not per request, so the OpenAI family is measured against
 * OpenAI's own tokenizer (o200k_base, gpt-tokenizer) instead, on the fixtures' messages and on a generated
 * long session (lib/certify-kit/long-session.ts).
 *
 *   npx bun bench/fit-estimate.ts
 */
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import type { Message } from "../lib/ir/schema.ts";
import { tokenCounter, type TokenFamily, tokenFamily } from "../lib/fit/tokens.ts";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { longSessionLines } from "../lib/certify-kit/long-session.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

interface Delta {
  harness: string;
  family: TokenFamily;
  actual: number;
  estimate: number;
}

const inputOf = (m: Message) =>
  m.usage ? m.usage.inputTokens + m.usage.cacheReadTokens + m.usage.cacheWriteTokens : 0;

/** The differences between consecutive requests of one session (a response split in records counted once). */
function deltas(harness: string, messages: Message[]): Delta[] {
  const out: Delta[] = [];
  let last: { index: number; input: number; id?: string } | undefined;
  messages.forEach((m, index) => {
    const input = inputOf(m);
    if (m.role !== "assistant" || !input) return;
    if (last && m.providerMessageId !== undefined && m.providerMessageId === last.id) return;
    if (last && input > last.input) {
      const family = tokenFamily(m.model);
      const counter = tokenCounter(family);
      const between = messages.slice(last.index, index);
      const estimate = between.reduce((sum, b) => sum + counter.message(b), 0);
      out.push({ harness, family, actual: input - last.input, estimate });
    }
    last = { index, input, ...(m.providerMessageId ? { id: m.providerMessageId } : {}) };
  });
  return out;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(jsonl|json|db)$/.test(e.name) ? [join(dir, e.name)] : []
  );
}

/** What o200k_base counts of the text the estimate counts (block text, tool names and inputs as JSON). */
function o200k(m: Message): number {
  return m.blocks.reduce((sum, b) => {
    if (b.type === "text" || b.type === "reasoning") return sum + countTokens(b.text);
    if (b.type === "tool_call") return sum + countTokens(b.name + (JSON.stringify(b.input) ?? ""));
    if (b.type === "tool_result") {
      return sum + b.content.reduce((n, p) => n + (p.type === "text" ? countTokens(p.text) : 0), 0);
    }
    return sum;
  }, 4);
}

const openai = tokenCounter("openai");
const against = { fixtures: { actual: 0, estimate: 0 }, long: { actual: 0, estimate: 0 } };
const all: Delta[] = [];
for (const harness of builtinRegistry.harnesses) {
  for (const path of files(join(FIXTURES, harness.name))) {
    try {
      const session = await harness.store.read(path);
      all.push(...deltas(harness.name, session.messages));
      for (const m of session.messages) {
        against.fixtures.actual += o200k(m);
        against.fixtures.estimate += openai.message(m);
      }
    } catch {
      // Not a session file of this harness (schemas, manifests, index files): nothing to measure.
    }
  }
}

const long = join(tmpdir(), `sb-fit-estimate-${process.pid}.jsonl`);
writeFileSync(
  long,
  [...longSessionLines({ bytes: 4_000_000, sessionId: "5e551011-0000-4000-8000-000000000002", cwd: "/tmp" })]
    .join("\n"),
);
for (
  const m of (await builtinRegistry.harnesses.find((h) => h.name === "claude-code")!.store.read(long))
    .messages
) {
  against.long.actual += o200k(m);
  against.long.estimate += openai.message(m);
}
rmSync(long);
for (const [what, { actual, estimate }] of Object.entries(against)) {
  console.log(
    `openai (o200k_base, ${what}): tokens ${actual}  estimate/actual ${(estimate / actual).toFixed(3)}`,
  );
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const groups = [...new Set(all.map((d) => `${d.family} ${d.harness}`))].sort();
const families: string[] = [...new Set(all.map((d) => d.family))].sort();
for (const group of families.concat(groups)) {
  const mine = all.filter((d) => group === d.family || group === `${d.family} ${d.harness}`);
  const actual = mine.reduce((s, d) => s + d.actual, 0);
  const estimate = mine.reduce((s, d) => s + d.estimate, 0);
  const weighted = mine.reduce((s, d) => s + Math.abs(d.estimate - d.actual), 0) / actual;
  const perRequest = median(mine.map((d) => Math.abs(d.estimate - d.actual) / d.actual));
  console.log(
    `${group.padEnd(22)} requests ${String(mine.length).padStart(4)}  tokens ${
      String(actual).padStart(7)
    }  ` +
      `estimate/actual ${(estimate / actual).toFixed(3)}  error ${
        (weighted * 100).toFixed(1)
      }% (size-weighted), ` +
      `${(perRequest * 100).toFixed(1)}% (median per request)`,
  );
}
