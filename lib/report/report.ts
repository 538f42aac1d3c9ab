/**
 * The conversion report: every thing that could not transfer, was transformed, or was synthesized, with a
 * stable code. "Lossless" is claimed only when no entry has severity `loss`.
 */
import type { Message, Session } from "../ir/schema.ts";
import type { Capabilities } from "./capabilities.ts";
import type { TranslationStats } from "../tools/translate.ts";
import { postureFrom } from "../posture/posture.ts";

export type Severity = "info" | "warning" | "loss";

export interface ReportEntry {
  code: string;
  severity: Severity;
  count: number;
  detail: string;
  /** A few places to look: message indexes (`#12`) or call ids. */
  examples: string[];
}

export interface ConversionReport {
  source: { harness: string; id: string };
  target: { harness: string };
  lossless: boolean;
  entries: ReportEntry[];
}

export interface ConversionActions {
  handshake: boolean;
  stubbedCalls: number;
  tools: TranslationStats;
  /** Harness control tags in transcript text made inert. */
  neutralized: number;
}

const EXAMPLES = 3;

export function buildReport(
  session: Session,
  target: Capabilities,
  actions: ConversionActions,
): ConversionReport {
  const entries: ReportEntry[] = [];
  const add = (code: string, severity: Severity, count: number, detail: string, examples: string[] = []) => {
    if (count > 0) entries.push({ code, severity, count, detail, examples: examples.slice(0, EXAMPLES) });
  };
  const same = session.meta.harness === target.harness;

  if (same) {
    add(
      "records-copied-verbatim",
      "info",
      1,
      "same harness: every source record is copied, ids and paths adjusted",
    );
  } else {
    reportForeign(session, target, add);
  }

  const { openToolCalls, queuedInput } = session.pending;
  add(
    "open-tool-calls",
    actions.stubbedCalls ? "info" : "warning",
    openToolCalls.length,
    actions.stubbedCalls
      ? "open tool calls closed with synthetic interrupted results"
      : "open tool calls left open (use --stub-open-calls so the provider accepts the next turn)",
    openToolCalls.map((c) => c.callId),
  );
  add(
    "queued-input",
    actions.handshake ? "warning" : "loss",
    queuedInput.length,
    actions.handshake
      ? "queued user input is described in the resume handshake, not replayed"
      : "queued user input dropped",
  );
  add(
    "tools-translated",
    "info",
    actions.tools.translated,
    "tool calls renamed and re-shaped into the target's vocabulary; the originals are kept for a hop back",
  );
  add(
    "tools-restored",
    "info",
    actions.tools.restored,
    "tool calls restored to their exact native form from an earlier hop",
  );
  add(
    "tools-passed-through",
    "warning",
    actions.tools.passedThrough.length,
    "tool calls with no equivalent in the target keep their foreign name",
    [...new Set(actions.tools.passedThrough)],
  );
  add(
    "control-tags-neutralized",
    "info",
    actions.neutralized,
    "harness control tags inside transcript text were made inert (<tag> became ‹tag›) so they cannot act as instructions",
  );
  add("handshake-added", "info", actions.handshake ? 1 : 0, "a resume handshake message was appended");
  add("notices", "warning", session.notices.length, session.notices.join("; "));
  add(
    "drift",
    "warning",
    session.drift.length,
    "source shapes not described by the embedded schemas (see inspect)",
  );

  return {
    source: { harness: session.meta.harness, id: session.meta.id },
    target: { harness: target.harness },
    lossless: !entries.some((e) => e.severity === "loss"),
    entries,
  };
}

type Add = (code: string, severity: Severity, count: number, detail: string, examples?: string[]) => void;

function reportForeign(session: Session, target: Capabilities, add: Add) {
  const where = indexer(session.messages);
  const branches = session.threads.filter((t) => t.kind === "abandoned-branch");
  const side = session.threads.filter((t) => t.kind === "sidechain" || t.kind === "subagent");
  const compacted = session.threads.filter((t) => t.kind === "compacted");
  add(
    "abandoned-branches",
    "loss",
    target.threadTopology ? 0 : branches.length,
    "rewound branches are not carried",
  );
  add(
    "subagents",
    "loss",
    target.subagents ? 0 : side.length,
    "sidechains and subagent transcripts are not carried",
    side.map((t) => t.id),
  );
  add(
    "compacted-history",
    "info",
    compacted.reduce((n, t) => n + t.messages.length, 0),
    "history before compaction is summarized, not replayed",
  );

  const foreignProof = session.messages.filter((m) =>
    m.blocks.some((b) =>
      b.type === "reasoning" && (b.signature || b.encrypted) && b.provider !== target.reasoningProvider
    )
  );
  add(
    "reasoning-proofs-dropped",
    "warning",
    foreignProof.length,
    "reasoning signatures/encrypted payloads only go back to their provider; the text is kept",
    foreignProof.map(where),
  );
  const raw = session.messages.filter((m) => m.blocks.some((b) => b.type === "raw"));
  add(
    "raw-items",
    "loss",
    raw.length,
    "items with no equivalent in the target are not carried",
    raw.map(where),
  );
  const images = session.messages.filter((m) => m.blocks.some((b) => b.type === "image"));
  add("images", "loss", target.images ? 0 : images.length, "images are not carried", images.map(where));
  const context = session.messages.filter((m) => m.kind === "context");
  add(
    "harness-context",
    "info",
    context.length,
    "text the source harness injected is not replayed as user words",
    context.map(where),
  );
  const bookkeeping = [...new Set(session.passthrough.map((r) => r.type))];
  add(
    "harness-records",
    "info",
    session.passthrough.length,
    "the source harness's own bookkeeping records (not conversation) are not carried",
    bookkeeping,
  );
  add(
    "system-instructions",
    "loss",
    session.meta.systemInstructions && !target.systemInstructions ? 1 : 0,
    "system instructions are not carried",
  );
  add("tool-schemas", "loss", target.toolSchemas ? 0 : session.tools.length, "tool schemas are not carried");
  const words = session.meta.permissionMode;
  const posture = postureFrom(session.meta.harness, words);
  const carried = !!posture && target.permissionPosture;
  add(
    "permission-posture-translated",
    "info",
    words && carried ? 1 : 0,
    `permission posture "${words}" expressed by meaning (approval ${posture?.approval}, sandbox ${posture?.sandbox})`,
  );
  add(
    "permission-posture",
    "loss",
    words && !carried ? 1 : 0,
    `permission posture "${words}" has no equivalent in the target`,
  );
  add(
    "per-turn-models",
    "loss",
    session.meta.models.length > 1 && !target.perTurnModel ? session.meta.models.length : 0,
    "per-turn model switches collapse to one model",
    session.meta.models,
  );
}

function indexer(messages: Message[]): (m: Message) => string {
  const index = new Map(messages.map((m, i) => [m, i]));
  return (m) => `#${index.get(m)}`;
}

/** The report with what the target store adds (its plan's notes); lossless only while nothing is lost. */
export function withNotes(report: ConversionReport, notes: ReportEntry[] = []): ConversionReport {
  const entries = [...report.entries, ...notes];
  return { ...report, entries, lossless: !entries.some((e) => e.severity === "loss") };
}

/** Human lines for stderr. */
export function formatReport(report: ConversionReport): string[] {
  const head = `report ${report.source.harness} -> ${report.target.harness}: ${
    report.lossless ? "lossless" : "lossy"
  }`;
  return [head, ...report.entries.map((e) => `  ${e.severity.padEnd(7)} ${e.code} x${e.count}: ${e.detail}`)];
}
