import type { Command } from "../command.ts";
import { flag, positionals } from "../args.ts";
import { loadSession } from "../load.ts";
import type { Block, Message } from "../../ir/schema.ts";
import { redactSession } from "../../observe/redact-transcript.ts";
import { redactedLine } from "../redacted.ts";

export const show: Command = {
  usage: "session-bridge show <session> [--from H] [--redact] [--json]",
  help:
    "  --from H     look for <session> in this harness only\n  --redact     replace every secret with a <redacted:KIND> marker (the count goes to stderr)\n  --json prints the whole IR session",
  arguments: ["session"],
  options: { from: { type: "string" }, redact: { type: "boolean" } },
  async run(parsed, context) {
    const { err, out, printJson } = context.output;
    const { json } = context;
    const [ref] = positionals(parsed, ["session"]);
    const loaded = (await loadSession(ref!, parsed.values, context)).session;
    const { session, redacted } = flag(parsed.values, "redact")
      ? redactSession(loaded)
      : { session: loaded, redacted: undefined };
    if (json) {
      printJson({ session, ...(redacted !== undefined ? { redacted } : {}) });
      return 0;
    }
    if (redacted !== undefined) err(redactedLine(redacted));
    for (const m of session.messages) for (const line of renderMessage(m)) out(line);
    for (const t of session.threads) out(`(kept apart: ${t.kind} ${t.id}, ${t.messages.length} messages)`);
    return 0;
  },
};

function renderMessage(m: Message): string[] {
  const tags = [m.model, m.kind !== "turn" ? m.kind : undefined].filter(Boolean).join(", ");
  return [
    `── ${m.role}${tags ? ` (${tags})` : ""}${m.timestamp ? ` · ${m.timestamp}` : ""}`,
    ...m.blocks.map(renderBlock),
    "",
  ];
}

function renderBlock(b: Block): string {
  switch (b.type) {
    case "text":
      return b.text;
    case "reasoning":
      return `[reasoning${b.signature || b.encrypted ? `, ${b.provider}-bound proof` : ""}] ${b.text}`;
    case "tool_call":
      return `[tool call ${b.name} ${b.id}] ${JSON.stringify(b.input)}`;
    case "tool_result":
      return `[tool result ${b.callId}${b.isError ? ", error" : ""}] ${
        b.content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n")
      }`;
    case "image":
      return `[image ${b.mediaType ?? b.url ?? ""}]`;
    case "raw":
      return `[${b.harness} ${b.kind}] ${JSON.stringify(b.value)}`;
  }
}
