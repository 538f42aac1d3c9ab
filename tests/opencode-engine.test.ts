/**
 * The OpenCode engine live, offline: `session-bridge run opencode` through the real CLI and the real OpenCode
 * 1.18.33 (acceptance/opencode-offline.ts: the fake Chat Completions server on 127.0.0.1). A name is one
 * conversation: the second turn under it continues the first; the prompt reaches the model exactly as typed
 * (`opencode run` quotes argument words that hold a space, so it goes on stdin); the turn runs in the folder it
 * is started in even when the caller's PWD says another (OpenCode takes its directory from PWD).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { contentText } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { installHarness } from "../acceptance/install-harness.ts";
import { offlineOpenCode } from "../acceptance/opencode-offline.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

// Until the built-in list names OpenCode, it joins the registry as any harness can (withHarness).
const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
  ? builtinRegistry
  : withHarness(builtinRegistry, openCode);

test("run opencode --alias notes twice: the second turn continues the first conversation, each prompt sent as typed, in the folder the turn runs in", async () => {
  const root = realpathSync(tempDir("sb-oc-engine-"));
  const oc = await offlineOpenCode(root);
  try {
    const bin = await installHarness("opencode");
    const cwd = join(root, "My Project");
    const elsewhere = join(root, "elsewhere");
    mkdirSync(cwd);
    mkdirSync(elsewhere);
    const registryFile = join(root, "sessions.json");
    const env = {
      ...oc.env as Record<string, string>,
      // The caller's shell was in another folder: the turn still runs where it is started.
      PWD: elsewhere,
      LAZYBRIDGE_SESSIONS_FILE: registryFile,
      SESSION_BRIDGE_HOME: join(root, "bridge"),
    };
    const first = await runCli(
      ["run", "opencode", "--alias", "notes", "--bin", bin, "Remember KIWI please"],
      env,
      cwd,
      registry,
    );
    assert.equal(first.code, 0, first.stderr);
    const sessions = JSON.parse(readFileSync(registryFile, "utf8")).sessions;
    const id: string = sessions.opencode[cwd].notes.native_id;
    assert.match(id, /^ses_/);
    assert.match(first.stderr, new RegExp(`@notes -> opencode:${id}`));
    assert.match(first.stdout, /^ASSISTANT-REPLY: acknowledged, turn 1,/);

    const second = await runCli(
      ["run", "oc", "--alias", "notes", "--bin", bin, "--", '-v "What" was the word?'],
      env,
      cwd,
      registry,
    );
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`@notes -> opencode:${id}`));
    assert.match(second.stdout, /^ASSISTANT-REPLY: acknowledged, turn 2,/);

    // The model's turns (title requests are not streamed): the second carries the first, word for word.
    const turns = oc.requests().filter((r) => r.stream === true);
    const users = turns.at(-1)!.messages.filter((m) => m.role === "user").map((m) => contentText(m.content));
    assert.deepEqual(users, ["Remember KIWI please", '-v "What" was the word?']);

    const db = new DatabaseSync(join(oc.home, "opencode.db"), { readOnly: true });
    try {
      const rows = db.prepare("SELECT id, directory FROM session").all();
      assert.deepEqual(rows.map((r) => ({ ...r })), [{ id, directory: cwd }]);
    } finally {
      db.close();
    }
  } finally {
    await oc.close();
  }
});
