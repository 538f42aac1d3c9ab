/**
 * Real mode cannot be exercised offline; what can be is its plumbing: each harness's private home gets the
 * user's provider setup (and nothing else of their home), and its environment keeps the user's keys while every
 * home variable points at the private home.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { userClaudeHome } from "../lib/harnesses/claude-code/certify/user.ts";
import { userCodexHome } from "../lib/harnesses/codex/certify/user.ts";
import { userHermesHome } from "../lib/harnesses/hermes/certify/user.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { tempDir } from "./helpers/tmp.ts";

/** Every built-in harness's home variable: none of the user's reaches a harness in its private home. */
const HOME_VARIABLES = builtinRegistry.harnesses.map((h) => h.home.env);

function userWorld() {
  const root = tempDir();
  const user = join(root, "user");
  const put = (path: string, text: string) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  };
  put(
    join(user, ".claude", "settings.json"),
    JSON.stringify({
      env: { ANTHROPIC_BASE_URL: "https://proxy.example" },
      model: "opus",
      hooks: { Stop: [] },
      cleanupPeriodDays: 3,
    }),
  );
  put(join(user, ".claude", ".credentials.json"), '{"claudeAiOauth":{}}');
  put(join(user, ".claude", "projects", "-p", "s.jsonl"), "{}\n");
  put(join(user, ".claude.json"), JSON.stringify({ primaryApiKey: "sk-ant-user", projects: { "/p": {} } }));
  put(join(user, ".codex", "config.toml"), 'model = "gpt-5"\n');
  put(join(user, ".codex", "auth.json"), '{"OPENAI_API_KEY":null}');
  put(join(user, ".codex", "sessions", "x.jsonl"), "{}\n");
  put(join(user, ".hermes", "config.yaml"), "model:\n  provider: openrouter\n");
  put(join(user, ".hermes", ".env"), "OPENROUTER_API_KEY=sk-or-user\n");
  put(join(user, ".hermes", "state.db"), "not copied");
  const env = {
    HOME: user,
    PATH: "/usr/bin",
    ANTHROPIC_API_KEY: "sk-ant-env",
    OPENAI_API_KEY: "sk-env",
    CODEX_HOME: undefined,
    TMPDIR: "/user/tmp",
  };
  return { root, user, env };
}

test("Claude Code: provider settings, login and stored key carried over; the rest of the home is not", () => {
  const { root, env } = userWorld();
  const home = join(root, "private-claude");
  const runEnv = userClaudeHome(home, env, HOME_VARIABLES);
  const settings = JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8"));
  assert.deepEqual(settings, {
    env: { ANTHROPIC_BASE_URL: "https://proxy.example" },
    model: "opus",
    cleanupPeriodDays: 100000,
  });
  assert.ok(existsSync(join(home, ".claude", ".credentials.json")));
  assert.deepEqual(JSON.parse(readFileSync(join(home, ".claude", ".claude.json"), "utf8")), {
    primaryApiKey: "sk-ant-user",
  });
  assert.ok(!existsSync(join(home, ".claude", "projects")), "no sessions of the user's are copied");
  assert.equal(runEnv.ANTHROPIC_API_KEY, "sk-ant-env");
  assert.equal(runEnv.HOME, home);
  assert.equal(runEnv.CLAUDE_CONFIG_DIR, join(home, ".claude"));
  assert.equal(runEnv.TMPDIR, join(home, "tmp"));
  assert.equal(runEnv.ANTHROPIC_BASE_URL, undefined, "no fake server in real mode");
});

test("Claude Code: CLAUDE_CONFIG_DIR locates the user's config and its .claude.json", () => {
  const { root, user, env } = userWorld();
  const config = join(user, "alt-claude");
  mkdirSync(config);
  writeFileSync(join(config, ".claude.json"), JSON.stringify({ primaryApiKey: "sk-ant-alt" }));
  const home = join(root, "private-claude-alt");
  userClaudeHome(home, { ...env, CLAUDE_CONFIG_DIR: config }, HOME_VARIABLES);
  assert.equal(
    JSON.parse(readFileSync(join(home, ".claude", ".claude.json"), "utf8")).primaryApiKey,
    "sk-ant-alt",
  );
  assert.deepEqual(JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8")), {
    cleanupPeriodDays: 100000,
  });
});

test("Codex: config.toml and auth.json carried over, sessions not; CODEX_HOME is the private one", () => {
  const { root, env } = userWorld();
  const home = join(root, "private-codex");
  const runEnv = userCodexHome(home, env, HOME_VARIABLES);
  assert.equal(readFileSync(join(home, ".codex", "config.toml"), "utf8"), 'model = "gpt-5"\n');
  assert.ok(existsSync(join(home, ".codex", "auth.json")));
  assert.ok(!existsSync(join(home, ".codex", "sessions")));
  assert.equal(runEnv.CODEX_HOME, join(home, ".codex"));
  assert.equal(runEnv.OPENAI_API_KEY, "sk-env");
  assert.equal(runEnv.TMPDIR, join(home, "tmp"));
});

test("Hermes: config.yaml and .env carried over, state.db not; HERMES_HOME is the private one", () => {
  const { root, env } = userWorld();
  const home = join(root, "private-hermes");
  const hermesHome = join(home, ".hermes");
  const runEnv = userHermesHome(home, hermesHome, join(root, "tmp"), "0.19.0", env, HOME_VARIABLES);
  assert.match(readFileSync(join(hermesHome, "config.yaml"), "utf8"), /openrouter/);
  assert.ok(existsSync(join(hermesHome, ".env")));
  assert.ok(existsSync(join(hermesHome, ".update_check")), "no PyPI update check");
  assert.ok(!existsSync(join(hermesHome, "state.db")));
  assert.equal(runEnv.HERMES_HOME, hermesHome);
  assert.equal(runEnv.HOME, home);
});
