import type { Command } from "../command.ts";
import { fitFlags, harnessFlag, positionals, str } from "../args.ts";
import { homeOf } from "../../harnesses/homes.ts";
import { whatTheModelSees } from "../../fit/report.ts";
import { loadSession } from "../load.ts";
import { fitPreview, type Inspection, inspection } from "../../pipeline/inspect.ts";
import { terminalField as field } from "../../io/control-characters.ts";

export const inspect: Command = {
  usage:
    "session-bridge inspect <session> [--from H] [--to H [--model M] [--fit auto|off|TOKENS] [--context TOKENS]] [--json]",
  help: `  --from H     look for <session> in this harness only
  --to H       also say what H's model would see of it on a handoff: its window and whether the history
               fits, or how much is summarized and how much kept verbatim (see handoff --fit)
  --model M, --fit F, --context TOKENS   as handoff takes them, with --to`,
  arguments: ["session"],
  options: {
    from: { type: "string" },
    to: { type: "string" },
    model: { type: "string" },
    fit: { type: "string" },
    context: { type: "string" },
  },
  async run(parsed, context) {
    const { out, printJson } = context.output;
    const { json, registry } = context;
    const { values } = parsed;
    const [ref] = positionals(parsed, ["session"]);
    const { session } = await loadSession(ref!, values, context);
    const summary = inspection(session);
    const target = harnessFlag(values, "to", registry);
    const model = str(values, "model");
    const preview = target &&
      await fitPreview(session, target, {
        home: homeOf(context.homes, target),
        env: context.env,
        ...(model !== undefined ? { model } : {}),
        ...fitFlags(values),
      });
    const fit = target && preview?.plan
      ? {
        target: target.name,
        model: preview.model ?? null,
        ...preview.plan,
        sees: whatTheModelSees(preview.plan),
      }
      : undefined;
    if (json) printJson({ session: summary, ...(fit ? { fit } : {}) });
    else {
      for (const line of describe(summary)) out(line);
      if (fit) out(`  into ${fit.target} (${field(fit.model ?? "its own default model")}): ${fit.sees}`);
    }
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
