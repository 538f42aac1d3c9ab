/**
 * Every target continues on a model id valid for its own provider: --model first, else the target's own
 * configuration, else the source's model mapped into the target's namespace; the report says which and why.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import { BUILTIN_HARNESSES, builtinRegistry } from "../lib/harnesses/registry.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import type { Session } from "../lib/ir/schema.ts";
import type { HarnessName } from "../lib/harnesses/registry.ts";
import { wholeLines } from "../lib/io/rendered.ts";
import { capturedIds, hermesFixture } from "./helpers/hermes.ts";
import { codexFixture, makeCodexHome } from "./helpers/codex.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";

const ROUTED = "anthropic/claude-sonnet-4.6";
const root = tempDir();

/** A real Hermes session, as if it had been recorded through OpenRouter. */
async function routedSession(): Promise<Session> {
  const id = capturedIds("0.19.0", "text-turns")[0]!;
  const session = await readHermesSession(`${hermesFixture("0.19.0", "text-turns.state.db")}#${id}`);
  for (const m of session.messages) if (m.role === "assistant") m.model = ROUTED;
  return { ...session, meta: { ...session.meta, models: [ROUTED], provider: "openrouter" } };
}

/** A home per harness, by harness name. */
type Homes = Record<HarnessName, string>;

function homes(name: string): Homes {
  const dir = join(root, name);
  const h = {
    "claude-code": join(dir, "claude"),
    codex: join(dir, "codex"),
    hermes: join(dir, "hermes"),
    "gemini-cli": join(dir, "gemini"),
    opencode: join(dir, "opencode"),
    "copilot-cli": join(dir, "copilot"),
    pi: join(dir, "pi"),
  };
  for (const d of Object.values(h)) mkdirSync(d, { recursive: true });
  return h;
}

async function converted(target: HarnessName, h: Homes, model?: string) {
  const prepared = await prepareConversion(await routedSession(), BUILTIN_HARNESSES[target], {
    registry: builtinRegistry,
    cwd: root,
    handshake: true,
    now: new Date(),
    home: h[target],
    ...(model ? { model } : {}),
  });
  const lines: string[] = [];
  const rendered = BUILTIN_HARNESSES[target].store.render(prepared.session, prepared.options);
  for await (const l of wholeLines(rendered)) lines.push(l);
  const detail = prepared.report.entries.find((e) => e.code === "model")?.detail;
  return { lines: lines.map((l) => JSON.parse(l) as Record<string, unknown>), detail };
}

function claudeModels(lines: Record<string, unknown>[]): string[] {
  return [
    ...new Set(
      lines.filter((l) => l.type === "assistant").map((l) => (l.message as { model: string }).model),
    ),
  ];
}

test("a Hermes session recorded through OpenRouter continues in Claude Code on the Anthropic id of its model", async () => {
  const { lines, detail } = await converted("claude-code", homes("mapped"));
  assert.deepEqual(claudeModels(lines), ["claude-sonnet-4-6"]);
  assert.equal(
    detail,
    "continues on claude-sonnet-4-6: the source's anthropic/claude-sonnet-4.6 as claude-code names it",
  );
});

test("Claude Code's own settings.json model is what a handed-off session continues on", async () => {
  const h = homes("settings");
  writeFileSync(join(h["claude-code"], "settings.json"), JSON.stringify({ model: "claude-opus-4-7" }));
  const { lines, detail } = await converted("claude-code", h);
  assert.deepEqual(claudeModels(lines), ["claude-opus-4-7"]);
  assert.equal(
    detail,
    `continues on claude-opus-4-7, configured in ${join(h["claude-code"], "settings.json")} ` +
      "(the source used anthropic/claude-sonnet-4.6)",
  );
});

test("without a configured model, a Claude Code target continues on the model it last ran", async () => {
  const h = homes("transcript");
  const { path } = seedClaudeHome(h["claude-code"], "plain-text");
  const { lines, detail } = await converted("claude-code", h);
  assert.deepEqual(claudeModels(lines), ["claude-opus-5-5"]);
  assert.equal(
    detail,
    `continues on claude-opus-5-5, the model this Claude Code last ran (${path}) ` +
      "(the source used anthropic/claude-sonnet-4.6)",
  );
});

test("--model changes the model a Claude Code target records", async () => {
  const { lines, detail } = await converted("claude-code", homes("flag"), "claude-haiku-4-5");
  assert.deepEqual(claudeModels(lines), ["claude-haiku-4-5"]);
  assert.equal(detail, "continues on claude-haiku-4-5 (--model)");
});

test("a Codex target continues on the model of its config.toml profile", async () => {
  const h = homes("codex-profile");
  makeCodexHome(h.codex);
  writeFileSync(
    join(h.codex, "config.toml"),
    'profile = "fast"\nmodel = "gpt-5.5"\nmodel_provider = "fake"\n\n[profiles.fast]\nmodel = "gpt-5.5-mini"\n',
  );
  const { lines, detail } = await converted("codex", h);
  const models = lines.filter((l) => l.type === "turn_context").map((l) =>
    (l.payload as { model?: string }).model
  );
  assert.deepEqual([...new Set(models)], ["gpt-5.5-mini"]);
  assert.equal(
    detail,
    `continues on gpt-5.5-mini, configured in ${join(h.codex, "config.toml")} (profile fast) ` +
      "(the source used anthropic/claude-sonnet-4.6)",
  );
});

test("a Claude model has no Codex form: without a configured model Codex picks its own default", async () => {
  const { lines, detail } = await converted("codex", homes("codex-none"));
  const models = lines.filter((l) => l.type === "turn_context").map((l) =>
    (l.payload as { model?: string }).model
  );
  assert.deepEqual([...new Set(models)], [undefined]);
  assert.equal(
    detail,
    "continues on codex's own default model: the source's anthropic/claude-sonnet-4.6 is not a codex model and none is configured",
  );
});

test("model ids are mapped into each target's namespace, or not at all", () => {
  const mapModel = (target: HarnessName, model: string) =>
    BUILTIN_HARNESSES[target].conversation.models.map(model);
  assert.equal(mapModel("claude-code", "anthropic/claude-sonnet-4.6"), "claude-sonnet-4-6");
  assert.equal(mapModel("claude-code", "anthropic.claude-opus-4-1-v1:0"), "claude-opus-4-1");
  assert.equal(mapModel("claude-code", "claude-opus-4-7"), "claude-opus-4-7");
  assert.equal(mapModel("claude-code", "gpt-5.5"), undefined);
  assert.equal(mapModel("claude-code", "openai/claude-lookalike"), undefined);
  assert.equal(mapModel("codex", "openai/gpt-5.5"), "gpt-5.5");
  assert.equal(mapModel("codex", "o3"), "o3");
  assert.equal(mapModel("codex", "claude-sonnet-4-6"), undefined);
  assert.equal(mapModel("hermes", ROUTED), ROUTED);
});

test("--model changes the model a Claude Code to Claude Code copy resumes with", async () => {
  const h = homes("claude-copy");
  const { path } = seedClaudeHome(h["claude-code"], "plain-text");
  const source = await BUILTIN_HARNESSES["claude-code"].store.read(path);
  const prepared = await prepareConversion(source, BUILTIN_HARNESSES["claude-code"], {
    registry: builtinRegistry,
    cwd: root,
    handshake: true,
    now: new Date(),
    home: h["claude-code"],
    model: "claude-haiku-4-5",
  });
  const lines: Record<string, unknown>[] = [];
  const rendered = BUILTIN_HARNESSES["claude-code"].store.render(prepared.session, prepared.options);
  for await (const l of wholeLines(rendered)) {
    lines.push(JSON.parse(l));
  }
  assert.deepEqual(claudeModels(lines), ["claude-haiku-4-5"]);
  assert.equal(
    prepared.report.entries.find((e) => e.code === "model")?.detail,
    "continues on claude-haiku-4-5 (--model)",
  );
});

test("--model for a Codex to Codex copy travels on the resume command, since the copy keeps its recorded models", async () => {
  const h = homes("codex-copy");
  makeCodexHome(h.codex);
  const r = await runCliJson([
    "handoff",
    codexFixture("0.169.0", "text-turns"),
    "--to",
    "codex",
    "--cwd",
    root,
    "--codex-home",
    h.codex,
    "--model",
    "gpt-5.5-mini",
    "--dry-run",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as { id: string; resumeCommand: string };
  assert.ok(target.resumeCommand.endsWith(`codex resume ${target.id} -m gpt-5.5-mini`), target.resumeCommand);
});
