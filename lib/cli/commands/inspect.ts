import type { Command } from "../command.ts";
import { positionals } from "../args.ts";
import { loadSession } from "../load.ts";
import { type Inspection, inspection } from "../../pipeline/inspect.ts";
import { terminalField as field } from "../../io/control-characters.ts";

export const inspect: Command = {
  usage: "session-bridge inspect <session> [--from H] [--json]",
  help: "  --from H     look for <session> in this harness only",
  arguments: ["session"],
  options: { from: { type: "string" } },
  async run(parsed, context) {
    const { out, printJson } = context.output;
    const { json } = context;
    const [ref] = positionals(parsed, ["session"]);
    const { session } = await loadSession(ref!, parsed.values, context);
    const summary = inspection(session);
    if (json) printJson({ session: summary });
    else for (const line of describe(summary)) out(line);
    return 0;
  },
};

/** Where the session was started and what it consumed, as the source harness recorded it. */
function usageLine(s: Inspection): string {
  const parts = s.source ? [`started from ${s.source}`] : [];
  if (s.usage) parts.push(`${s.usage.inputTokens} input / ${s.usage.outputTokens} output tokens`);
  if (s.costUsd !== null) parts.push(`$${s.costUsd.toFixed(4)}`);
  return parts.join("; ");
}

function describe(s: Inspection): string[] {
  const lines = [
    `${s.harness} session ${field(s.id)}${s.version ? ` (written by ${field(s.version)})` : ""}`,
    `  title     ${field(s.title ?? "-")}`,
    `  cwd       ${field(s.cwd ?? "-")}`,
    `  file      ${field(s.path ?? "-")}`,
    `  models    ${field(s.models.join(", ")) || "-"}`,
    `  time      ${s.createdAt ?? "?"} .. ${s.updatedAt ?? "?"}`,
    ...(s.usage || s.source ? [`  usage     ${usageLine(s)}`] : []),
    `  live thread: ${s.messages} messages; ${s.text} text, ${s.reasoning} reasoning, ${s.toolCalls} tool calls, ` +
    `${s.toolResults} tool results, ${s.images} images, ${s.raw} other`,
  ];
  lines.push(`  tools     ${s.tools} schemas; system instructions ${s.systemInstructions} characters`);
  for (const t of s.threads) lines.push(`  kept apart: ${t.kind} ${field(t.id)} (${t.messages} messages)`);
  const p = s.pending;
  lines.push(
    `  pending: ${p.openToolCalls.length} open tool calls${
      p.openToolCalls.length
        ? ` (${p.openToolCalls.map((c) => field(`${c.name} ${c.callId}`)).join(", ")})`
        : ""
    }, ` +
      `${p.queuedInput.length} queued inputs${p.interruptedTurn ? ", last turn interrupted" : ""}`,
  );
  if (!s.drift.length) lines.push("  drift: none");
  for (const d of s.drift) {
    lines.push(
      `  drift: ${d.where}: ${d.problem} (x${d.count}, lines ${d.examples.join(", ")}; schemas ${d.version})`,
    );
  }
  for (const n of s.notices) lines.push(`  notice: ${field(n)}`);
  return lines;
}
