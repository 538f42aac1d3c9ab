/**
 * The model a handoff into OpenCode writes is one this OpenCode can run: `--model`, else the model OpenCode's
 * own configuration names (its layers as 1.18.33 merges them: global folder, OPENCODE_CONFIG, the project's
 * files, .opencode folders and OPENCODE_CONFIG_DIR, OPENCODE_CONFIG_CONTENT), else the source's. Real config
 * files, and a handoff through the CLI into a database the real binary wrote (the fixture), its message rows
 * read back by SQL. Precedence expectations are written from OpenCode's config module, not from ours.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { configuredOpenCodeModel } from "../lib/harnesses/opencode/config.ts";
import { emptyHomes, homeFlags, runCli } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";
import { opencodeDriver } from "../lib/harnesses/opencode/certify/index.ts";
import { FAKE_MODEL } from "../lib/harnesses/opencode/certify/run.ts";

const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
  ? builtinRegistry
  : withHarness(builtinRegistry, openCode);

const FIXTURE_DB =
  new URL("../fixtures/opencode/1.18.33/tools-subagent.opencode.db", import.meta.url).pathname;
const ID = "ses_dc3d00000000ConfigModel001";

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A user's home, an XDG config folder, a project in a git worktree; no file in any yet. */
function place() {
  const root = realpathSync(tempDir());
  const home = join(root, "user");
  const config = join(root, "xdg-config");
  const worktree = join(root, "repo");
  const cwd = join(worktree, "packages", "app");
  mkdirSync(join(worktree, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const env: NodeJS.ProcessEnv = { HOME: home, XDG_CONFIG_HOME: config };
  return { root, home, config, worktree, cwd, env };
}

const model = (json: string) => JSON.stringify({ $schema: "https://opencode.ai/config.json", model: json });

test("OpenCode's configured model is the global opencode.json's, under XDG_CONFIG_HOME, else ~/.config", () => {
  const p = place();
  assert.equal(configuredOpenCodeModel("", { env: p.env, cwd: p.cwd }), undefined);
  const file = write(join(p.home, ".config", "opencode", "opencode.json"), model("fake/home-default"));
  assert.deepEqual(configuredOpenCodeModel("", { env: { HOME: p.home }, cwd: p.cwd }), {
    model: "fake/home-default",
    where: `configured in ${file} (model)`,
  });
  const xdg = write(
    join(p.config, "opencode", "opencode.jsonc"),
    `{\n  // mine\n  "model": "fake/fake-model",\n}`,
  );
  assert.deepEqual(configuredOpenCodeModel("", { env: p.env, cwd: p.cwd }), {
    model: "fake/fake-model",
    where: `configured in ${xdg} (model)`,
  });
});

test("OpenCode's configured model follows its layers: OPENCODE_CONFIG over global, the nearest project file over both, OPENCODE_CONFIG_DIR over the project, OPENCODE_CONFIG_CONTENT over all", () => {
  const p = place();
  write(join(p.config, "opencode", "opencode.json"), model("a/global"));
  const custom = write(join(p.root, "custom.json"), model("b/custom"));
  const env = { ...p.env, OPENCODE_CONFIG: custom };
  const at = (e: NodeJS.ProcessEnv) => configuredOpenCodeModel("", { env: e, cwd: p.cwd })?.model;
  assert.equal(at(env), "b/custom");
  write(join(p.worktree, "opencode.json"), model("c/worktree"));
  assert.equal(at(env), "c/worktree");
  write(join(p.worktree, "packages", "opencode.jsonc"), model("d/nearer"));
  assert.equal(at(env), "d/nearer");
  // Above the worktree's root is outside the project: not read.
  write(join(p.root, "opencode.json"), model("x/outside"));
  assert.equal(at(env), "d/nearer");
  assert.equal(at({ ...env, OPENCODE_DISABLE_PROJECT_CONFIG: "true" }), "b/custom");
  const dir = join(p.root, "config-dir");
  write(join(dir, "opencode.json"), model("e/config-dir"));
  assert.equal(at({ ...env, OPENCODE_CONFIG_DIR: dir }), "e/config-dir");
  assert.equal(
    at({ ...env, OPENCODE_CONFIG_DIR: dir, OPENCODE_CONFIG_CONTENT: `{"model":"f/content"}` }),
    "f/content",
  );
  // A layer that names no model leaves the one before.
  assert.equal(at({ ...env, OPENCODE_CONFIG_CONTENT: `{"share":"disabled"}` }), "d/nearer");
});

test("OpenCode's configured model has {env:NAME} replaced as OpenCode replaces it; one read from a file is not followed", () => {
  const p = place();
  write(join(p.config, "opencode", "opencode.json"), model("fake/fake-model"));
  const custom = write(join(p.root, "custom.json"), model("{env:OC_PROVIDER}/{env:OC_MODEL}"));
  const env = { ...p.env, OPENCODE_CONFIG: custom, OC_PROVIDER: "mine", OC_MODEL: "big-1" };
  assert.equal(configuredOpenCodeModel("", { env, cwd: p.cwd })?.model, "mine/big-1");
  write(custom, model("{file:./model.txt}"));
  assert.equal(configuredOpenCodeModel("", { env, cwd: p.cwd })?.model, "fake/fake-model");
});

test("an opencode.json that does not parse is named with its line, exit 2, and nothing is written", async () => {
  const p = place();
  const file = write(
    join(p.config, "opencode", "opencode.json"),
    `{\n  "model": "fake/fake-model"\n  "share": 1\n}`,
  );
  const h = handoffWorld(p.env);
  const r = await h.handoff();
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim(), `session-bridge: ${file}:3: not valid JSON: CommaExpected`);
  assert.deepEqual(h.models(), []);
});

/** A handoff of a Claude Code session into a copy of a database OpenCode 1.18.33 wrote, run through the CLI. */
function handoffWorld(env: NodeJS.ProcessEnv) {
  const root = realpathSync(tempDir());
  const home = join(root, "data", "opencode");
  mkdirSync(home, { recursive: true });
  const database = join(home, "opencode.db");
  copyFileSync(FIXTURE_DB, database);
  const cwd = join(root, "project");
  mkdirSync(cwd);
  const homes = registry === builtinRegistry
    ? homeFlags({ opencode: home }, root)
    : [...emptyHomes(root), "--opencode-home", home];
  const fullEnv = { ...env, SESSION_BRIDGE_HOME: join(root, "bridge") } as Record<string, string>;
  const handoff = (...extra: string[]) =>
    runCli(
      [
        "handoff",
        claudeFixture("thinking-tool-use"),
        "--to",
        "opencode",
        "--cwd",
        cwd,
        "--session-id",
        ID,
        ...homes,
        ...extra,
        "--json",
      ],
      fullEnv,
      undefined,
      registry,
    );
  /** Each message row's model, as OpenCode continues on it: `provider/model`. */
  const models = () => {
    const db = new DatabaseSync(database, { readOnly: true });
    try {
      return db.prepare("SELECT data FROM message WHERE session_id = ? ORDER BY id").all(ID).map((row) => {
        const data = JSON.parse(String(row.data)) as {
          model?: { providerID: string; modelID: string };
          providerID?: string;
          modelID?: string;
        };
        return data.model
          ? `${data.model.providerID}/${data.model.modelID}`
          : `${data.providerID}/${data.modelID}`;
      });
    } finally {
      db.close();
    }
  };
  return { cwd, handoff, models };
}

test("a handoff into OpenCode writes the model its configuration names on every message, and the report says where it was configured", async () => {
  const p = place();
  const file = write(join(p.config, "opencode", "opencode.json"), model("fake/fake-model"));
  const h = handoffWorld(p.env);
  const r = await h.handoff();
  assert.equal(r.code, 0, r.stderr);
  const models = h.models();
  assert.ok(models.length > 1);
  assert.deepEqual(new Set(models), new Set(["fake/fake-model"]));
  const report = JSON.stringify(JSON.parse(r.stdout));
  assert.ok(report.includes(`continues on fake/fake-model, configured in ${file} (model)`), report);
});

test("a handoff into OpenCode in a project whose opencode.json names a model writes that model", async () => {
  const p = place();
  write(join(p.config, "opencode", "opencode.json"), model("fake/global-model"));
  const h = handoffWorld(p.env);
  write(join(h.cwd, "opencode.json"), model("fake/project-model"));
  const r = await h.handoff();
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(new Set(h.models()), new Set(["fake/project-model"]));
});

test("--model wins over OpenCode's configured model", async () => {
  const p = place();
  write(join(p.config, "opencode", "opencode.json"), model("fake/fake-model"));
  const h = handoffWorld(p.env);
  const r = await h.handoff("--model", "other/chosen");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(new Set(h.models()), new Set(["other/chosen"]));
});

test("with no OpenCode configuration naming a model, the handoff writes the source's model in OpenCode's terms and says so", async () => {
  const p = place();
  const h = handoffWorld(p.env);
  const r = await h.handoff();
  assert.equal(r.code, 0, r.stderr);
  const models = new Set(h.models());
  assert.equal(models.size, 1);
  assert.match([...models][0]!, /^anthropic\/claude-/);
  assert.match(r.stdout, /the source's claude-[^ ]+ as opencode names it/);
});

test("certify's OpenCode gives a handoff into it the variables its private runs find their config by, so the model its driver configured is the one written", async () => {
  const work = realpathSync(tempDir());
  const oc = await opencodeDriver.open({
    work,
    bin: "opencode",
    version: "1.18.33",
    mode: "structure",
    env: {},
    homeVariables: [],
  });
  try {
    const env = oc.configEnv?.() ?? {};
    assert.deepEqual(Object.keys(env), ["XDG_CONFIG_HOME"]);
    assert.deepEqual(configuredOpenCodeModel(oc.homes().opencode!, { env, cwd: work }), {
      model: FAKE_MODEL,
      where: `configured in ${join(work, "opencode", "config", "opencode", "opencode.json")} (model)`,
    });
  } finally {
    await oc.close();
  }
});

test("a configured model's {env:NAME} is replaced in one pass; an unclosed run of them is kept as written", () => {
  const modelOf = (model: string, env: Record<string, string> = {}) =>
    configuredOpenCodeModel("", {
      env: { HOME: "/nonexistent", OPENCODE_CONFIG_CONTENT: JSON.stringify({ model }), ...env },
      cwd: "/nonexistent",
    })?.model;
  assert.equal(modelOf("{env:P}/{env:M}", { P: "fake", M: "fake-model" }), "fake/fake-model");
  assert.equal(modelOf("fake/{env:UNSET}x"), "fake/x");
  // Hostile: a megabyte of openings never closed (a pattern tried each to the end: quadratic).
  const unclosed = `fake/${"{env:e".repeat(200_000)}`;
  assert.equal(modelOf(unclosed), unclosed);
});

test("a directory whose name is too long to exist holds no OpenCode configuration: the global one names the model", () => {
  const p = place();
  write(join(p.config, "opencode", "opencode.json"), model("fake/global"));
  // A session's recorded cwd is hostile input: a name longer than the system takes is no folder of anything.
  const tooLong = join(p.root, "\u202e".repeat(4096));
  assert.equal(configuredOpenCodeModel("", { env: p.env, cwd: tooLong })?.model, "fake/global");
});
