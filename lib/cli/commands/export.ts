import { type Command, titles } from "../command.ts";
import { flag, outputFlag, positionals, str } from "../args.ts";
import { storesOf } from "../load.ts";
import { exportSession } from "../../pipeline/export.ts";
import { InputError } from "../../errors.ts";
import { redactedLine } from "../redacted.ts";

export const exportCommand: Command = {
  usage: "session-bridge export <session> -o FILE [--force] [--from H] [--redact] [--json]",
  help: ({ harnesses }) => {
    const databases = harnesses.filter((h) => h.store.exportedAs);
    const files = harnesses.filter((h) => !h.store.exportedAs);
    const copied = files.filter((h) => h.conversation.capabilities.copiesOwnSessions);
    const rendered = files.filter((h) => !h.conversation.capabilities.copiesOwnSessions);
    return [
      "  -o, --output FILE  write here (required; - for stdout)",
      "  --force            replace FILE if it exists",
      "  --from H           look for <session> in this harness only",
      "  --redact           replace every secret with a <redacted:KIND> marker (the count goes to stderr)",
      ...databases.map((h) =>
        `Database-only sessions (${h.title}) become a file, as \`${h.store.exportedAs}\` writes it.`
      ),
      ...(copied.length ? [`File-based sessions (${titles(copied)}) are copied record by record.`] : []),
      ...(rendered.length
        ? [`Sessions of ${titles(rendered)} are written anew from what session-bridge reads of them.`]
        : []),
      "Nothing is added: no handshake, no stubs, the session keeps its id.",
    ].join("\n");
  },
  arguments: ["session"],
  options: {
    output: { type: "string", short: "o" },
    force: { type: "boolean" },
    from: { type: "string" },
    redact: { type: "boolean" },
  },
  async run(parsed, context) {
    const { err, out, printJson } = context.output;
    const { json } = context;
    const [ref] = positionals(parsed, ["session"]);
    const output = outputFlag(parsed.values, json);
    if (!output) throw new InputError("missing -o FILE (or -o - for stdout)");
    const from = str(parsed.values, "from");
    const exported = await exportSession({
      ref: ref!,
      ...(from !== undefined ? { from } : {}),
      output,
      force: flag(parsed.values, "force"),
      redact: flag(parsed.values, "redact"),
      ...storesOf(context),
    });
    if (json) {
      printJson({
        output: exported.output,
        session: exported.session,
        ...(exported.redacted !== undefined ? { redacted: exported.redacted } : {}),
      });
    } else {
      if (exported.redacted !== undefined) err(redactedLine(exported.redacted));
      // Written to stdout, the session is the output: the line saying so goes to stderr.
      const line = `exported ${exported.session.harness}:${exported.session.id} to ${
        exported.output ?? "stdout"
      }`;
      if (exported.output) out(line);
      else err(line);
    }
    return 0;
  },
};
