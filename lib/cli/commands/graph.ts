import type { Command } from "../command.ts";
import { positionals, str } from "../args.ts";
import { loadSession } from "../load.ts";
import { InputError } from "../../errors.ts";
import { sessionGraph } from "../../observe/session-graph.ts";

const FORMATS = ["json", "yaml", "mermaid"] as const;

export const graph: Command = {
  usage: "session-bridge graph <session> [--format json|yaml|mermaid] [--from H] [--json]",
  help: `  --format F   json (default), yaml, or mermaid (a flowchart to paste into Markdown)
  --from H     look for <session> in this harness only
Agents (main, subagents and sidechains, with provider and models), the tools each used, and the session's
handoff lineage: where it came from and where it went, from session-bridge's ledger and handshake.`,
  arguments: ["session"],
  options: { format: { type: "string" }, from: { type: "string" } },
  async run(parsed, context) {
    const { out, printJson } = context.output;
    const [ref] = positionals(parsed, ["session"]);
    const format = str(parsed.values, "format") ?? "json";
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new InputError(`--format must be one of ${FORMATS.join(", ")}, not ${JSON.stringify(format)}`);
    }
    const { session } = await loadSession(ref!, parsed.values, context);
    const built = sessionGraph(session, context.bridgeHome);
    if (context.json || format === "json") printJson({ ...built.toJSON() });
    else out((format === "yaml" ? built.toYAML() : built.toMermaid()).trimEnd());
    return 0;
  },
};
