import type { Command } from "../command.ts";
import { flag } from "../args.ts";
import { buildSandbox } from "../../demo/sandbox.ts";
import { out } from "../output.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";

export const demo: Command = {
  usage: "session-bridge demo [--keep]",
  help: "  --keep       leave the sandbox folder in place to look around (its path is printed)",
  options: { keep: { type: "boolean" } },
  async run(parsed, context) {
    const sandbox = buildSandbox();
    // The demo's backups and undo ledger belong to the sandbox, not to the user's real session-bridge home: the
    // steps run with an environment naming it (a copy: the process's own environment is left as it was).
    const env = { ...context.env, SESSION_BRIDGE_HOME: sandbox.bridgeHome };
    // Every registered harness gets a home in the sandbox (an empty one when the demo seeds none), so no step
    // ever lists or touches a store of the user's.
    const homes = context.registry.harnesses.flatMap((h) => [
      `--${h.home.flag}`,
      sandbox.homes[h.name] ?? join(sandbox.root, h.name),
    ]);
    const steps: [string, string[]][] = [
      ["Sessions found in the sandbox stores", ["list", ...homes]],
      ["What the Claude Code sample contains", ["inspect", sandbox.sessionId, ...homes]],
      ["Plan a handoff to another project directory (nothing is written)", [
        "handoff",
        sandbox.sessionId,
        "--to",
        "claude-code",
        "--cwd",
        sandbox.targetCwd,
        "--dry-run",
        ...homes,
      ]],
      ["Hand it off for real", [
        "handoff",
        sandbox.sessionId,
        "--to",
        "claude-code",
        "--cwd",
        sandbox.targetCwd,
        ...homes,
      ]],
      ["Hand it to Codex: a rollout and its row in the sandbox's Codex thread index (no Codex needed)", [
        "handoff",
        sandbox.sessionId,
        "--to",
        "codex",
        "--cwd",
        sandbox.targetCwd,
        ...homes,
      ]],
      ["Codex's index now lists it, titled as its resume picker shows it", [
        "list",
        "--from",
        "codex",
        ...homes,
      ]],
      ["Hand it to Hermes too: rows in the sandbox's Hermes state.db (no Hermes needed)", [
        "handoff",
        sandbox.sessionId,
        "--to",
        "hermes",
        "--cwd",
        sandbox.targetCwd,
        ...homes,
      ]],
      ["Hermes's store now holds it", ["list", "--from", "hermes", ...homes]],
    ];
    let code = 0;
    for (const [title, argv] of steps) {
      out(`\n=== ${title}\n$ session-bridge ${argv.join(" ")}`);
      // The real commands, in-process, so what the demo shows is exactly what a user gets.
      code = await context.run(argv, env);
      if (code !== 0) break;
    }
    out("\nThe printed resume commands name the sandbox homes: with --keep, paste them to resume there.");
    if (flag(parsed.values, "keep")) out(`sandbox kept at ${sandbox.root}`);
    else rmSync(sandbox.root, { recursive: true, force: true });
    return code;
  },
};
