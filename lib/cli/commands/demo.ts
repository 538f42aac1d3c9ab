import type { Command, Context } from "../command.ts";
import { flag } from "../args.ts";
import { outputTo } from "../output.ts";
import { buildSandbox } from "../../demo/sandbox.ts";
import { rmSync } from "node:fs";
import type { Harness } from "../../harnesses/types.ts";
import { homeVariableValue } from "../../harnesses/homes.ts";

export const demo: Command = {
  usage: "session-bridge demo [--keep] [--json]",
  help:
    `  --keep       leave the sandbox folder in place to look around and resume there (its path is printed)
--json prints one document: each step's command, exit code and its own --json output.`,
  arguments: [],
  options: { keep: { type: "boolean" } },
  async run(parsed, context) {
    const { out, printJson } = context.output;
    const sandbox = await buildSandbox(context.registry);
    // The demo's backups and undo ledger belong to the sandbox, not to the user's real session-bridge home,
    // and every registered harness gets a home in the sandbox (an empty one when the demo seeds none), so no
    // step ever lists or touches a store of the user's: the steps run with an environment naming them (a copy:
    // the process's own environment is left as it was), and the commands shown stay as short as a user's.
    const homes = Object.fromEntries(context.registry.harnesses.map((h) => [
      h.home.env,
      // The sandbox names each home as its default folder is, so a subfolder home is always sayable.
      homeVariableValue(h.home, sandbox.homes[h.name]!)!,
    ]));
    const env = { ...context.env, ...homes, SESSION_BRIDGE_HOME: sandbox.bridgeHome };
    const session = sandbox.sessionId.slice(0, 8);
    const handoff = (
      to: Harness,
    ): string[] => ["handoff", session, "--to", to.name, "--cwd", sandbox.targetCwd];
    const steps: Step[] = [
      ["Sessions found in the sandbox stores", ["list"]],
      [`What the ${sandbox.source.title} sample contains`, ["inspect", session]],
      ["Plan a handoff to another project directory (nothing is written)", [
        ...handoff(sandbox.source),
        "--dry-run",
      ]],
      ...sandbox.seated.flatMap((h): Step[] => [
        [h.demo!.handoff, handoff(h)],
        ...(h.demo!.listed ? [[h.demo!.listed, ["list", "--from", h.name]] satisfies Step] : []),
      ]),
    ];
    const keep = flag(parsed.values, "keep");
    try {
      if (context.json) {
        const { code, done } = await runJson(steps, env, context);
        printJson({ sandbox: keep ? sandbox.root : null, steps: done }, code === 0);
        return code;
      }
      const code = await runShown(steps, env, context, homes);
      out("");
      if (keep) {
        // The undo ledger is the sandbox's, which a pasted `undo` finds only through the variable.
        out(
          `The sandbox is kept at ${sandbox.root}: paste the resume commands above to resume there; ` +
            `run the undo commands with SESSION_BRIDGE_HOME=${sandbox.bridgeHome}.`,
        );
      } else {
        out(
          "The sandbox is now removed, and with it what the resume and undo commands above name " +
            "(`session-bridge demo --keep` keeps it).",
        );
      }
      out(
        "On your own sessions: session-bridge list, then session-bridge handoff latest --to <harness> --dry-run",
      );
      return code;
    } finally {
      if (!keep) rmSync(sandbox.root, { recursive: true, force: true });
    }
  },
};

type Step = [title: string, argv: string[]];

/** The steps as a person watches them: each command as typed, then what it prints; the first failure stops. */
async function runShown(steps: Step[], env: Context["env"], context: Context, homes: Record<string, string>) {
  const { out } = context.output;
  out(
    `The sandbox's stores, as the steps find them:\n${
      Object.entries(homes).map(([k, v]) => `  ${k}=${v}`).join("\n")
    }`,
  );
  for (const [title, argv] of steps) {
    out(`\n=== ${title}\n$ session-bridge ${argv.join(" ")}`);
    // The real commands, in-process, so what the demo shows is exactly what a user gets.
    const code = await context.run(argv, env);
    if (code !== 0) return code;
  }
  return 0;
}

interface StepDone {
  title: string;
  command: string[];
  exitCode: number;
  /** The step's own --json document. */
  output: unknown;
  stderr: string;
}

/** The steps with --json, each one's document captured into the demo's one document; the first failure stops. */
async function runJson(steps: Step[], env: Context["env"], context: Context) {
  const done: StepDone[] = [];
  for (const [title, argv] of steps) {
    const captured = { 1: "", 2: "" };
    const exitCode = await context.run(
      [...argv, "--json"],
      env,
      outputTo((fd, text) => (captured[fd] += text)),
    );
    const output: unknown = JSON.parse(captured[1]);
    done.push({ title, command: ["session-bridge", ...argv], exitCode, output, stderr: captured[2] });
    if (exitCode !== 0) return { code: exitCode, done };
  }
  return { code: 0, done };
}
