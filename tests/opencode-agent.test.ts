/**
 * What OpenCode tells the commands it runs, and where it finds skills, live against the real OpenCode 1.18.33
 * offline (acceptance/opencode-offline.ts): `install-skill --harness opencode` links the skill into OpenCode's
 * configuration folder (not its data folder, the home), and OpenCode's next request lists it; a command its
 * shell tool runs sees OPENCODE=1 and no session id, so `current` there takes its newest session in that
 * directory: the one the command ran in.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readlinkSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { resolveHomes } from "../lib/harnesses/homes.ts";
import { currentSession } from "../lib/pipeline/current.ts";
import { SKILL_NAME, skillSource } from "../lib/pipeline/skill.ts";
import { HarnessEngine } from "../lib/engines/engine.ts";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { installHarness } from "../acceptance/install-harness.ts";
import { offlineOpenCode } from "../acceptance/opencode-offline.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

// Until the built-in list names OpenCode, it joins the registry as any harness can (withHarness).
const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
  ? builtinRegistry
  : withHarness(builtinRegistry, openCode);

/** Words of the skill's description: a request carrying them lists the skill. */
const SKILL_WORDS = "Hand this very session";

/** `env`'s output (NAME=value lines) as an environment; a value holding a newline is cut there. */
function environment(output: string): Record<string, string> {
  const lines = output.split("\n").filter((l) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(l));
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
}

test("install-skill puts the skill in OpenCode's configuration folder, its request lists it, and current run by its shell tool names the session it runs in", async () => {
  const root = realpathSync(tempDir("sb-oc-agent-"));
  const oc = await offlineOpenCode(root);
  try {
    const bin = await installHarness("opencode");
    const cwd = join(root, "project");
    mkdirSync(cwd);
    const bridgeHome = join(root, "bridge");
    const env = { ...oc.env as Record<string, string>, SESSION_BRIDGE_HOME: bridgeHome };

    const installed = await runCli(["install-skill", "--harness", "oc", "--json"], env, cwd, registry);
    assert.equal(installed.code, 0, installed.stderr);
    const [line] = JSON.parse(installed.stdout).harnesses;
    const path = join(root, "config", "opencode", "skills", SKILL_NAME);
    assert.deepEqual({ harness: line.harness, path: line.path, outcome: line.outcome }, {
      harness: "opencode",
      path,
      outcome: "linked",
    });
    assert.equal(readlinkSync(path), skillSource(bridgeHome));

    // The default fake model runs `TOOL: <command>` in the shell tool and answers with its output.
    const engine = new HarnessEngine(openCode, {
      bin,
      cwd,
      env,
      registry: new SessionRegistry({ path: join(root, "sessions.json") }),
    });
    const turn = await engine.run("TOOL: env");
    assert.ok(turn.ok, turn.stderr);
    const id = turn.sessionId!;
    assert.match(id, /^ses_/);

    // The agent's first request (the one offering tools; the title request offers none).
    const asked = JSON.stringify(oc.requests().find((r) => r.tools !== undefined) ?? {});
    assert.ok(asked.includes(SKILL_NAME) && asked.includes(SKILL_WORDS), "the request lists the skill");

    const told = environment(turn.reply.replace(/^Tool said: /, ""));
    assert.equal(told.OPENCODE, "1");
    const found = await currentSession({
      registry,
      // The store as the command finds it: from the environment OpenCode passed down (XDG_DATA_HOME).
      homes: resolveHomes(registry.harnesses, {}, told, cwd),
      env: told,
      cwd,
      ancestors: [],
    });
    assert.deepEqual(
      { harness: found.harness.name, id: found.session.id, rule: found.rule },
      { harness: "opencode", id, rule: "newest-in-directory" },
    );
    assert.match(found.because, /^OPENCODE is set but names no session/);
  } finally {
    await oc.close();
  }
});
