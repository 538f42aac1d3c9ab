/**
 * `convert --to opencode` writes the file `opencode export` prints, which the real `opencode import` (1.18.33,
 * offline: acceptance/opencode-offline.ts) accepts, and whose session the real OpenCode then continues with
 * every earlier part once, in order.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { emptyHomes, runCli } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";
import { FAKE_MODEL, offlineOpenCode } from "../acceptance/opencode-offline.ts";

// Until the built-in list names OpenCode, it joins the registry as any harness can (withHarness).
const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
  ? builtinRegistry
  : withHarness(builtinRegistry, openCode);

test("a Claude Code session converted to OpenCode is a file opencode import accepts, and OpenCode continues it with every earlier part once, in order", async () => {
  const root = realpathSync(tempDir("sb-oc-convert-"));
  const oc = await offlineOpenCode(root);
  try {
    const cwd = join(root, "My Project");
    mkdirSync(cwd);
    const file = join(root, "session.json");
    const converted = await runCli(
      [
        "convert",
        claudeFixture("thinking-tool-use"),
        "--to",
        "opencode",
        "--model",
        FAKE_MODEL,
        "-o",
        file,
        ...emptyHomes(root),
        "--opencode-home",
        oc.home,
      ],
      { HOME: join(root, "user"), SESSION_BRIDGE_HOME: join(root, "bridge") },
      cwd,
      registry,
    );
    assert.equal(converted.code, 0, converted.stderr);
    const id: string = JSON.parse(readFileSync(file, "utf8")).info.id;
    assert.match(id, /^ses_/);

    const imported = await oc.run(["import", file], cwd);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, new RegExp(`Imported session: ${id}`));

    const before = oc.requests().length;
    const resumed = await oc.run(["run", "--session", id, "NEXT-PROMPT"], cwd);
    assert.equal(resumed.code, 0, resumed.stderr);
    const turn = oc.requests().slice(before).find((q) => q.tools?.length)!;
    const texts = turn.messages.slice(1).map((m) =>
      `${m.role} ${JSON.stringify([m.content, m.tool_calls ?? []])}`
    );
    const at = (pattern: RegExp) => {
      const found = texts.filter((t) => pattern.test(t));
      assert.equal(found.length, 1, `${pattern} once in ${texts.join("\n")}`);
      return texts.indexOf(found[0]!);
    };
    const order = [
      at(/^user .*fixture-tool-output/),
      at(/^assistant .*"name":"bash","arguments":"\{\\"command\\":\\"echo fixture-tool-output/),
      at(/^tool .*fixture-tool-output/),
      at(/^user .*NEXT-PROMPT/),
    ];
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
  } finally {
    await oc.close();
  }
});
