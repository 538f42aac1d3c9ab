import type { Command } from "../command.ts";
import { flag, positionals, str } from "../args.ts";
import { loadSession } from "../load.ts";
import { homeOf } from "../../harnesses/homes.ts";
import { publishFile } from "../../io/publish.ts";
import { holdingSignals } from "../../io/interrupt.ts";
import { InputError } from "../../errors.ts";
import { assertDirectory } from "../../io/paths.ts";
import { out, printJson } from "../output.ts";
import { dirname, resolve } from "node:path";

export const exportCommand: Command = {
  usage: "session-bridge export <session> -o FILE [--force] [--from H] [--json]",
  help: `  -o, --output FILE  write here (required)
  --force            replace FILE if it exists
  --from H           look for <session> in this harness only
Database-only sessions (Hermes) become a file; file-based ones (Claude Code, Codex) are copied record by record.
Nothing is added: no handshake, no stubs, the session keeps its id.`,
  options: { output: { type: "string", short: "o" }, force: { type: "boolean" }, from: { type: "string" } },
  async run(parsed, context) {
    const { homes, json, now } = context;
    const [ref] = positionals(parsed, ["session"]);
    const output = str(parsed.values, "output");
    if (!output) throw new InputError("missing -o FILE");
    const path = resolve(output);
    assertDirectory(dirname(path), "-o");
    const { session, source } = await loadSession(ref!, parsed.values, context);
    // The harness's own same-harness render: its records as they are, id and working directory unchanged.
    const lines = source.render(session, {
      id: session.meta.id,
      cwd: session.meta.cwd ?? "",
      now,
      stubOpenCalls: false,
      home: homeOf(homes, source),
      verbatim: true,
    });
    // Ctrl-C mid-write stops at the next chunk and leaves neither the file nor its temp file.
    await holdingSignals(() => publishFile(path, lines, flag(parsed.values, "force")));
    const exported = { harness: session.meta.harness, id: session.meta.id };
    if (json) printJson({ output: path, session: exported });
    else out(`exported ${exported.harness}:${exported.id} to ${path}`);
    return 0;
  },
};
