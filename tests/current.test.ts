/**
 * `current`: the session of the harness running us, found as each real harness tells its tool subprocesses
 * (CLAUDE_CODE_SESSION_ID, CODEX_THREAD_ID, HERMES_SESSION_ID: seen live by acceptance/scenarios/skill.ts),
 * else the newest session of the harness in this directory, with the rule said; and `current` as <session>.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { builtinRegistry, findHarness } from "../lib/harnesses/registry.ts";
import { resolveHomes } from "../lib/harnesses/homes.ts";
import { currentSession } from "../lib/pipeline/current.ts";
import { InputError, RefusedError } from "../lib/errors.ts";
import { FIXTURE_CWD, seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { capturedIds, seedHermesHome } from "./helpers/hermes.ts";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const registry = builtinRegistry;

/** Homes with one real session each, and the variables a CLI run must not inherit from whoever runs the suite. */
function stores() {
  const root = tempDir("sb-current-");
  const claudeHome = join(root, "claude");
  const codexHome = join(root, "codex");
  const hermesHome = join(root, "hermes");
  const claude = seedClaudeHome(claudeHome, "plain-text");
  const older = seedClaudeHome(claudeHome, "thinking-tool-use");
  makeCodexHome(codexHome);
  const codex = seedCodexThread(codexHome, "0.169.0", "text-turns");
  seedHermesHome(hermesHome, "0.19.0", "text-turns");
  const hermes = capturedIds("0.19.0", "text-turns")[0]!;
  const homes = resolveHomes(
    registry.harnesses,
    { "claude-code": claudeHome, codex: codexHome, hermes: hermesHome },
    { HOME: root },
  );
  const flags = homeFlags({ "claude-code": claudeHome, codex: codexHome, hermes: hermesHome }, root);
  const unset = Object.fromEntries(
    registry.harnesses.flatMap((
      h,
    ) => [...h.integrations.agent!.sessionVariables, ...h.integrations.agent!.markers]).map((
      v,
    ) => [v, ""]),
  );
  return { root, homes, flags, unset, claude, older, codex, hermes };
}

test("each harness's own session variable names the current session (rule: variable)", async () => {
  const s = stores();
  const cases = [
    ["CLAUDE_CODE_SESSION_ID", s.claude.id, "claude-code"],
    ["CODEX_THREAD_ID", s.codex.id, "codex"],
    ["HERMES_SESSION_ID", s.hermes, "hermes"],
  ] as const;
  for (const [variable, id, harness] of cases) {
    const found = await currentSession({ registry, homes: s.homes, env: { [variable]: id }, ancestors: [] });
    assert.equal(found.harness.name, harness);
    assert.equal(found.session.id, id);
    assert.equal(found.rule, "variable");
    assert.match(found.because, new RegExp(variable));
  }
});

test("a harness that names no session (Claude Code 1.0: only CLAUDECODE) gives its newest session in this directory", async () => {
  const s = stores();
  const found = await currentSession({
    registry,
    homes: s.homes,
    env: { CLAUDECODE: "1" },
    cwd: FIXTURE_CWD,
    ancestors: [],
  });
  assert.equal(found.rule, "newest-in-directory");
  assert.equal(found.harness.name, "claude-code");
  // Both seeded sessions are in FIXTURE_CWD: the newer one is taken.
  const newest = [s.claude, s.older].map((x) => x.id);
  assert.ok(newest.includes(found.session.id));
  await assert.rejects(
    currentSession({ registry, homes: s.homes, env: { CLAUDECODE: "1" }, cwd: s.root, ancestors: [] }),
    (e) => e instanceof RefusedError && /no session recorded in/.test(e.message),
  );
});

test("a harness known only as a parent process (its variables not passed on) gives its newest session here", async () => {
  const s = stores();
  const found = await currentSession({
    registry,
    homes: s.homes,
    env: {},
    cwd: FIXTURE_CWD,
    ancestors: [["/bin/bash", "-c", "session-bridge current"], ["/usr/local/bin/claude", "-p", "hi"]],
  });
  assert.equal(found.harness.name, "claude-code");
  assert.equal(found.rule, "newest-in-directory");
  assert.match(found.because, /parent process/);
});

test("nested harnesses: the nearest harness process among the ancestors is the one running us", async () => {
  const s = stores();
  // Codex started from Claude Code's shell inherits CLAUDE_CODE_SESSION_ID and adds CODEX_THREAD_ID.
  const env = { CLAUDE_CODE_SESSION_ID: s.claude.id, CLAUDECODE: "1", CODEX_THREAD_ID: s.codex.id };
  const ancestors = [["/bin/bash"], ["/opt/codex/bin/codex", "exec"], ["/bin/bash"], ["/x/claude"]];
  const found = await currentSession({ registry, homes: s.homes, env, ancestors });
  assert.equal(found.harness.name, "codex");
  assert.equal(found.session.id, s.codex.id);
  // Without ancestors to tell, it is not guessed; --from says.
  await assert.rejects(
    currentSession({ registry, homes: s.homes, env, ancestors: [] }),
    (e) => e instanceof InputError && /claude-code, codex.*--from/.test(e.message),
  );
  const chosen = await currentSession({
    registry,
    homes: s.homes,
    env,
    ancestors: [],
    from: findHarness(registry, "claude"),
  });
  assert.equal(chosen.session.id, s.claude.id);
});

test("a session variable naming an id the store does not list is refused, never replaced by a guess", async () => {
  const s = stores();
  await assert.rejects(
    currentSession({
      registry,
      homes: s.homes,
      env: { CODEX_THREAD_ID: "019a0000-0000-7000-8000-000000000000" },
      ancestors: [],
    }),
    (e) => e instanceof RefusedError && /CODEX_THREAD_ID names .* does not list.*CODEX_HOME/.test(e.message),
  );
});

test("no harness running us is a refusal naming the variables looked for", async () => {
  const s = stores();
  await assert.rejects(
    currentSession({ registry, homes: s.homes, env: {}, ancestors: [] }),
    (e) =>
      e instanceof RefusedError &&
      /CLAUDE_CODE_SESSION_ID, CODEX_THREAD_ID, CODEX_SESSION_ID, HERMES_SESSION_ID/.test(e.message),
  );
});

test("CLI: current prints the session and the rule; --json carries rule and because", async () => {
  const s = stores();
  const env = { ...s.unset, CODEX_THREAD_ID: s.codex.id };
  const text = await runCli([...s.flags, "current"], env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^codex ${s.codex.id}`));
  assert.match(text.stdout, /rule: variable \(CODEX_THREAD_ID, set by Codex CLI/);
  const { json, code } = await runCliJson([...s.flags, "current"], env);
  assert.equal(code, 0);
  assert.equal(json.harness, "codex");
  assert.equal(json.rule, "variable");
  assert.equal((json.session as { id: string }).id, s.codex.id);
});

test("CLI: current is a <session> for every command (inspect, show, handoff --dry-run pinned to the id)", async () => {
  const s = stores();
  const env = { ...s.unset, CLAUDE_CODE_SESSION_ID: s.claude.id };
  const inspect = await runCliJson([...s.flags, "inspect", "current"], env);
  assert.equal(inspect.code, 0, inspect.stderr);
  assert.match(inspect.stdout, new RegExp(s.claude.id));
  const show = await runCli([...s.flags, "show", "current"], env);
  assert.equal(show.code, 0, show.stderr);
  const dry = await runCli(
    [...s.flags, "handoff", "current", "--to", "hermes", "--cwd", s.root, "--stub-open-calls", "--dry-run"],
    env,
  );
  assert.equal(dry.code, 0, dry.stderr);
  // The command to carry the plan out names the session itself: `current` may mean another one later.
  assert.match(dry.stdout + dry.stderr, new RegExp(`handoff ${s.claude.id}`));
});

test("CLI: current with no harness running it exits 1 with one line", async () => {
  const s = stores();
  const r = await runCli([...s.flags, "current", "--from", "hermes"], s.unset);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /no harness is running this command \(looked for hermes\)/);
  assert.equal(r.stderr.trim().split("\n").length, 1);
});
