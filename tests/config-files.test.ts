/**
 * The harnesses' own configuration files, read as the harnesses read them: Codex `config.toml` as TOML (profiles
 * as tables, inline tables or dotted keys), Hermes `config.yaml` as YAML (anchors and aliases, flow maps, quoted
 * keys). These are the configurations the earlier line-by-line readers got wrong.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readCodexConfig } from "../lib/harnesses/codex/config.ts";
import { configuredModel } from "../lib/harnesses/hermes/config.ts";
import { InputError } from "../lib/errors.ts";
import { runCli } from "./helpers/cli.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
let homes = 0;

/** A Codex home holding only this config.toml. */
function codexHome(toml: string): string {
  const home = join(root, `codex-${homes++}`);
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.toml"), toml);
  return home;
}

/** A Hermes config.yaml with this text. */
function hermesConfig(yaml: string): string {
  const path = join(root, `config-${homes++}.yaml`);
  writeFileSync(path, yaml);
  return path;
}

test("a Codex profile written as an inline table is the profile Codex selects", () => {
  const home = codexHome(
    'profile = "fast"\nmodel = "gpt-5.5"\n\n[profiles]\nfast = { model = "gpt-5.5-mini", model_provider = "fake" }\n',
  );
  assert.deepEqual(readCodexConfig(home), {
    modelProvider: "fake",
    approvalPolicy: "on-request",
    sandboxMode: "read-only",
    model: "gpt-5.5-mini",
    profile: "fast",
  });
});

test("a Codex profile set with dotted keys, one of them an inline table, is the profile Codex selects", () => {
  const home = codexHome(
    [
      'profile = "deep"',
      'model = "gpt-5.5"',
      'profiles.fast.model = "gpt-5.5-mini"',
      'profiles.deep = { model = "gpt-5.5-pro", approval_policy = "never" }',
      'sandbox_mode = "workspace-write"',
      "",
    ].join("\n"),
  );
  assert.deepEqual(readCodexConfig(home), {
    modelProvider: "openai",
    approvalPolicy: "never",
    sandboxMode: "workspace-write",
    model: "gpt-5.5-pro",
    profile: "deep",
  });
});

test("a Codex table header with a comment after it still opens that table", () => {
  const home = codexHome('model = "gpt-5.5"\n\n[profiles.fast] # for quick fixes\nmodel = "gpt-5.5-mini"\n');
  assert.deepEqual(readCodexConfig(home), {
    modelProvider: "openai",
    approvalPolicy: "on-request",
    sandboxMode: "read-only",
    model: "gpt-5.5",
  });
});

test("a Codex config.toml that does not parse is bad input naming the file and line", () => {
  const home = codexHome('model = "gpt-5.5"\n[profiles.fast\nmodel = "x"\n');
  assert.throws(() => readCodexConfig(home), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.match(error.message, /^.*config\.toml:2: not valid TOML: \S/);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
});

test("a comma inside a quoted value of a Hermes flow map stays in the value", () => {
  const path = hermesConfig('model: {provider: custom, default: "ensemble/a,b", base_url: "http://h/v1"}\n');
  assert.deepEqual(configuredModel(path), { model: "ensemble/a,b", provider: "custom" });
});

test("a Hermes flow map spread over several lines is read whole", () => {
  const path = hermesConfig("model: {\n  default: fake-model-1,\n  provider: custom\n}\n");
  assert.deepEqual(configuredModel(path), { model: "fake-model-1", provider: "custom" });
});

test("a Hermes model given as a YAML alias is the anchored mapping", () => {
  const path = hermesConfig(
    "routes:\n  local: &local\n    provider: custom\n    default: fake-model-1\nmodel: *local\n",
  );
  assert.deepEqual(configuredModel(path), { model: "fake-model-1", provider: "custom" });
});

test("a Hermes model mapping merged from an anchor keeps its own overrides", () => {
  const path = hermesConfig(
    "base: &base\n  provider: custom\n  default: fake-model-1\nmodel:\n  <<: *base\n  default: fake-model-2\n",
  );
  assert.deepEqual(configuredModel(path), { model: "fake-model-2", provider: "custom" });
});

test("quoted keys in a Hermes model mapping are the same keys", () => {
  const path = hermesConfig("model:\n  \"default\": fake-model-1\n  'provider': custom\n");
  assert.deepEqual(configuredModel(path), { model: "fake-model-1", provider: "custom" });
});

test("a Hermes config.yaml that is empty, absent or not a mapping routes to no configured model", () => {
  assert.deepEqual(configuredModel(hermesConfig("")), {});
  assert.deepEqual(configuredModel(hermesConfig("- just\n- a list\n")), {});
  assert.deepEqual(configuredModel(join(root, "missing.yaml")), {});
});

test("a Hermes config.yaml that does not parse is bad input naming the file and line", () => {
  const path = hermesConfig("agent:\n  max_turns: 3\nmodel: {default: m\nother: 1\n");
  assert.throws(() => configuredModel(path), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.match(error.message, /config-\d+\.yaml:\d+: not valid YAML: \S/);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });
});

test("a handoff into a home whose config does not parse is exit 2, one line naming the file, nothing written", async () => {
  const claude = join(root, "claude");
  const source = seedClaudeHome(claude, "plain-text");
  const target = join(root, "target");
  mkdirSync(target, { recursive: true });
  const codex = join(root, "broken-codex");
  makeCodexHome(codex);
  writeFileSync(join(codex, "config.toml"), 'model = "gpt-5.5"\nmodel_provider = = "fake"\n');
  const hermes = join(root, "broken-hermes");
  seedHermesHome(hermes, "0.19.0", "text-turns");
  writeFileSync(join(hermes, "config.yaml"), "model:\n  default: [fake-model-1\n");
  const cases: [string, string, RegExp][] = [
    ["codex", "--codex-home", /broken-codex\/config\.toml:2: not valid TOML: /],
    ["hermes", "--hermes-home", /broken-hermes\/config\.yaml:\d+: not valid YAML: /],
  ];
  for (const [to, flag, pattern] of cases) {
    const home = to === "codex" ? codex : hermes;
    const before = snapshot(home);
    const r = await runCli([
      "handoff",
      source.id,
      "--to",
      to,
      "--cwd",
      target,
      "--claude-home",
      claude,
      flag,
      home,
    ]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split("\n").length, 1, `one line: ${r.stderr}`);
    assert.deepEqual(snapshot(home), before, "nothing written");
  }
});

test("a Hermes model's context_length is the window its configuration gives it (issue 33)", () => {
  const path = hermesConfig(
    "model:\n  default: fake-model-1\n  provider: custom\n  context_length: 131072\n",
  );
  assert.deepEqual(configuredModel(path), {
    model: "fake-model-1",
    provider: "custom",
    contextLength: 131072,
  });
  const bad = hermesConfig("model:\n  default: fake-model-1\n  context_length: lots\n");
  assert.deepEqual(configuredModel(bad), { model: "fake-model-1" });
});

test("a Codex profile's model_context_window is the window Codex takes its model to have (issue 33)", () => {
  const home = codexHome(
    'profile = "big"\nmodel = "gpt-5.5"\nmodel_context_window = 100000\n\n[profiles.big]\nmodel_context_window = 400000\n',
  );
  assert.equal(readCodexConfig(home).contextWindow, 400_000);
});
