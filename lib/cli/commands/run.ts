/**
 * `session-bridge run <harness> [--alias NAME] "prompt"`: one turn through the harness's own binary, with the
 * alias rules of lib/engines (a known name continues its conversation, a name another harness holds here is
 * handed over first). The answer goes to stdout; what happened to the name and any warnings to stderr.
 */
import process from "node:process";
import type { Command } from "../command.ts";
import { str } from "../args.ts";
import { aliasRegistry } from "../aliases.ts";
import { storesOf } from "../load.ts";
import { findHarness } from "../../harnesses/registry.ts";
import { findOnPath } from "../../certify-kit/binaries.ts";
import { InputError, messageOf, RefusedError } from "../../errors.ts";
import { HarnessEngine } from "../../engines/engine.ts";
import { type Exporter, Session } from "../../observe/session.ts";
import { otelOption } from "../otel-option.ts";

export const run: Command = {
  usage:
    'session-bridge run <harness> [--alias NAME] [--session-id ID] [--model M] [--effort E] [--bin PATH] [--events DB] [--otel URL] "prompt" [--json]',
  help: `  --alias NAME       the conversation's name in this folder (LazyBridge's registry): a known name
                     continues its conversation, a new one starts a fresh conversation and is bound to it,
                     a name held here only by another harness's conversation hands that one over first
  --session-id ID    continue this native id (wins over --alias, which is re-pointed at it)
  --model M          the model to run the turn on
  --effort E         its reasoning effort (where the harness takes one), recorded with the name; where the
                     harness stores the effort it ran with, that is recorded instead (--json: effort)
  --bin PATH         the harness executable (default: its command on PATH)
  --events DB        record the turn's events as they happen in a SQLite event log (LazyBridge's events
                     table, which its EventLog reads): start, each tool call and result, the answers with
                     the turn's token usage and cost, finish; secrets redacted
  --otel URL         send them as OpenTelemetry spans (GenAI conventions) to a collector's OTLP/HTTP
                     endpoint, e.g. http://localhost:4318 (or OTEL_EXPORTER_OTLP_ENDPOINT when set)
The turn runs non-interactively in the current folder; the answer is printed on stdout.`,
  arguments: ["harness", "prompt"],
  options: {
    alias: { type: "string" },
    "session-id": { type: "string" },
    model: { type: "string" },
    effort: { type: "string" },
    bin: { type: "string" },
    events: { type: "string" },
    otel: { type: "string" },
  },
  async run(parsed, context) {
    const { err, warn, out, printJson } = context.output;
    const [name, prompt] = parsed.positionals;
    if (!name || prompt === undefined) throw new InputError('run needs a harness and a "prompt"');
    const harness = findHarness(context.registry, name);
    if (!harness.integrations.engine) throw new InputError(`${harness.name} has no engine`);
    const spec = await harness.integrations.engine();
    const bin = str(parsed.values, "bin") ?? findOnPath(spec.command, context.env.PATH);
    if (!bin) {
      throw new RefusedError(`${spec.command} is not on PATH: install ${harness.title} or pass --bin PATH`);
    }
    const [alias, sessionId, model, effort] = ["alias", "session-id", "model", "effort"].map((n) =>
      str(parsed.values, n)
    );
    const { registry, homes, bridgeHome, recovered } = storesOf(context);
    const events = str(parsed.values, "events");
    const otel = await otelOption(str(parsed.values, "otel"), context.env);
    // Events are recorded only when asked for: a log (--events) or spans (--otel, or the OTel variables).
    const bus = events !== undefined || otel.exporter ? eventBus(events, otel.exporter, err) : undefined;
    const engine = new HarnessEngine(harness, {
      bin,
      cwd: process.cwd(),
      env: Object.fromEntries(
        Object.entries(context.env).filter((e): e is [string, string] => e[1] !== undefined),
      ),
      ...(alias !== undefined ? { alias } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(effort !== undefined ? { effort } : {}),
      registry: aliasRegistry(context),
      stores: { registry, homes, bridgeHome, recovered },
      ...(bus ? { session: bus } : {}),
    });
    let turn;
    try {
      turn = await engine.run(prompt);
    } finally {
      // Spans leave in batches: closing waits until the collector has them.
      await bus?.close();
    }
    for (const w of turn.warnings) warn(w);
    if (turn.handedOver) {
      const { from, to, op } = turn.handedOver;
      err(
        `handed @${alias} over: ${from.harness}:${from.id} -> ${to.harness}:${to.id} (undo: session-bridge undo ${op})`,
      );
    }
    if (context.json) {
      printJson({
        harness: harness.name,
        sessionId: turn.sessionId ?? null,
        alias: alias ?? null,
        reply: turn.reply,
        exitCode: turn.exitCode,
        handedOver: turn.handedOver ?? null,
        effort: turn.effort ?? null,
        warnings: turn.warnings,
      }, turn.ok);
    } else {
      if (turn.reply) out(turn.reply);
      if (alias !== undefined && turn.sessionId) err(`@${alias} -> ${harness.name}:${turn.sessionId}`);
    }
    if (!turn.ok) {
      if (!context.json) {
        err(
          `session-bridge: ${harness.name} failed (${
            turn.timedOut ? "timed out" : `exit ${turn.exitCode ?? turn.signal}`
          }): ${turn.stderr.trim().split("\n").slice(-3).join(" | ")}`,
        );
      }
      return 1;
    }
    // After the answer is out: the turn happened, only its spans did not arrive.
    otel.check();
    return 0;
  },
};

/** The turn's event session; an event log that cannot be opened is bad input, said in one line. */
function eventBus(db: string | undefined, otel: Exporter | undefined, warn: (line: string) => void): Session {
  try {
    return new Session({ ...(db !== undefined ? { db } : {}), exporters: otel ? [otel] : [], warn });
  } catch (error) {
    throw new InputError(`--events ${db}: cannot open the event log: ${messageOf(error)}`);
  }
}
