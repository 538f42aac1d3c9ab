import type { Command } from "../command.ts";
import { str } from "../args.ts";
import { findHarness } from "../../harnesses/registry.ts";
import { currentSession } from "../../pipeline/current.ts";

export const current: Command = {
  usage: "session-bridge current [--from H] [--json]",
  help: ({ harnesses }) =>
    `  --from H     the harness running this command, when several could be (nested harnesses)
The session of the coding agent that runs this command, in this directory: named by the harness's own
variable, else, when the harness is known but names none, its newest session recorded here. The output says
which rule was used. Every command takes "current" as <session>. Exit 1 when no harness is running it.
The variables: ${
      harnesses.flatMap((h) =>
        h.integrations.agent ? [`${h.title} ${h.integrations.agent.sessionVariables[0]}`] : []
      )
        .join(", ")
    }.`,
  arguments: [],
  options: { from: { type: "string" } },
  async run({ values }, { registry, homes, env, json, output }) {
    const { out, printJson } = output;
    const from = str(values, "from");
    const found = await currentSession({
      registry,
      homes,
      env,
      ...(from !== undefined ? { from: findHarness(registry, from) } : {}),
    });
    const { session } = found;
    if (json) {
      printJson({ harness: found.harness.name, session, rule: found.rule, because: found.because });
      return 0;
    }
    out(`${found.harness.name} ${session.id}${session.title ? `  "${session.title}"` : ""}`);
    out(`  path: ${session.path}`);
    if (session.cwd) out(`  cwd:  ${session.cwd}`);
    out(`  rule: ${found.rule} (${found.because})`);
    return 0;
  },
};
