import type { Command } from "../command.ts";
import { flag, positionals } from "../args.ts";
import { loadSession } from "../load.ts";
import type { Block, Message } from "../../ir/schema.ts";
import { redactSession } from "../../observe/redact-transcript.ts";
import { redactedLine } from "../redacted.ts";
import type { Line } from "../output.ts";

export const show: Command = {
  usage: "session-bridge show <session> [--from H] [--all] [--redact] [--json]",
  help: `  --from H     look for <session> in this harness only
  --all        show the harness's own context too (environment, AGENTS.md and permission blocks it injects
               as messages); without it each run of them is one line saying how many were left out
  --redact     replace every secret with a <redacted:KIND> marker (the count goes to stderr)
  --json       print the whole IR session
On a terminal the transcript goes through $PAGER (default: less -FRX; PAGER= or PAGER=cat: none).`,
  arguments: ["session"],
  options: { from: { type: "string" }, redact: { type: "boolean" }, all: { type: "boolean" } },
  async run(parsed, context) {
    const { err, printJson } = context.output;
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
    await context.output.page([
      ...transcriptLines(session.messages, flag(parsed.values, "all")),
      ...session.threads.map((t) => `(kept apart: ${t.kind} ${t.id}, ${t.messages.length} messages)`),
    ]);
    return 0;
  },
};

/**
 * The messages as lines; unless `all`, each run of the harness's own context messages (what it injects as
 * messages: environment, instructions, permissions) is one line saying how many were left out, so the
 * conversation starts where the person's first words are.
 */
function transcriptLines(messages: readonly Message[], all: boolean): Line[] {
  const lines: Line[] = [];
  let hidden = 0;
  const flush = () => {
    if (!hidden) return;
    const what = hidden === 1 ? "1 harness context message" : `${hidden} harness context messages`;
    lines.push([{ text: `(${what} left out: --all shows them)`, tone: "subtle" }], "");
    hidden = 0;
  };
  for (const m of messages) {
    if (!all && m.kind === "context") {
      hidden++;
      continue;
    }
    flush();
    lines.push(...renderMessage(m));
  }
  flush();
  return lines;
}

function renderMessage(m: Message): Line[] {
  const tags = [m.model, m.kind !== "turn" ? m.kind : undefined].filter(Boolean).join(", ");
  return [
    [{
      text: `── ${m.role}${tags ? ` (${tags})` : ""}${m.timestamp ? ` · ${m.timestamp}` : ""}`,
      tone: "heading",
    }],
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
