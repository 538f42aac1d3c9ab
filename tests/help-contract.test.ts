/**
 * The `--help` contract, for every command in the command registry (lib/cli/commands/index.ts), through the
 * real CLI entry: `session-bridge <cmd> --help` exits 0, starts with its usage line, and names every flag
 * the command parses (a flag the parser accepts but help never mentions is one no user can find); and
 * `session-bridge --help` lists every command with its summary.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMMANDS } from "../lib/cli/commands/index.ts";
import { GLOBAL_OPTIONS, homeOptions, type OptionSpec } from "../lib/cli/args.ts";
import { forRegistry } from "../lib/cli/command.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { runCli } from "./helpers/cli.ts";

/** Whether `help` names `--flag` (or `-f`) as a word of its own: `--stub-open-calls` is not `--no-stub-...`. */
function names(help: string, flag: string): boolean {
  const escaped = flag.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[\\s\\[,(|])${escaped}(?![\\w-])`, "m").test(help);
}

test("the help check tells a flag from a longer flag that ends with it", () => {
  const help = "  --no-stub-open-calls  leave calls open\n  -o, --output FILE\n  [--to H]";
  assert.equal(names(help, "--stub-open-calls"), false);
  assert.equal(names(help, "--no-stub-open-calls"), true);
  assert.equal(names(help, "-o"), true);
  assert.equal(names(help, "--output"), true);
  assert.equal(names(help, "--to"), true);
  assert.equal(names(help, "--t"), false);
});

for (const entry of COMMANDS) {
  test(`session-bridge ${entry.name} --help exits 0 with its usage and names every flag it parses`, async () => {
    const command = await entry.load();
    const r = await runCli([entry.name, "--help"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.match(r.stdout, new RegExp(`^Usage: session-bridge ${entry.name}(?: |\\n)`));
    // Exactly what the command's parser accepts (lib/cli/dispatch.ts): every harness's home flag, the global
    // flags, the flags it takes once per harness (certify's --<x>-bin) and its own.
    const accepted: OptionSpec = {
      ...homeOptions(builtinRegistry),
      ...GLOBAL_OPTIONS,
      ...command.harnessOptions?.(builtinRegistry),
      ...command.options,
    };
    const missing = Object.entries(accepted).flatMap(([name, spec]) => [
      ...(names(r.stdout, `--${name}`) ? [] : [`--${name}`]),
      ...(spec.short === undefined || names(r.stdout, `-${spec.short}`) ? [] : [`-${spec.short}`]),
    ]);
    assert.deepEqual(missing, [], `${entry.name} --help does not name what it parses`);
  });
}

test("the flags derived from the registry that the help checks above cover are the built-in harnesses", async () => {
  assert.deepEqual(Object.keys(homeOptions(builtinRegistry)), [
    "claude-home",
    "codex-home",
    "hermes-home",
    "gemini-home",
    "opencode-home",
    "copilot-home",
    "pi-home",
  ]);
  const certify = await COMMANDS.find((c) => c.name === "certify")!.load();
  assert.deepEqual(Object.keys(certify.harnessOptions!(builtinRegistry)), [
    "claude-bin",
    "codex-bin",
    "hermes-bin",
    "gemini-bin",
    "opencode-bin",
    "copilot-bin",
    "pi-bin",
  ]);
});

test("session-bridge --help lists every command with its summary, and -h and help say the same", async () => {
  const r = await runCli(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^session-bridge \d+\.\d+\.\d+: /);
  for (const entry of COMMANDS) {
    assert.match(
      r.stdout,
      new RegExp(
        `^  ${entry.name} +${
          forRegistry(entry.summary, builtinRegistry).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        }$`,
        "m",
      ),
    );
  }
  assert.deepEqual(await runCli(["-h"]), r);
  assert.deepEqual(await runCli(["help"]), r);
});

test("session-bridge with no command prints the command list as a usage error (exit 2)", async () => {
  const r = await runCli([]);
  assert.equal(r.code, 2);
  for (const entry of COMMANDS) assert.match(r.stdout, new RegExp(`^  ${entry.name} `, "m"));
});
