/**
 * How a conversion's report (lib/report/report.ts) is worked out: from the session, the target's capabilities
 * and what the conversion did to make the session fit.
 */
import type { Message } from "../ir/schema.ts";
import type { SessionHead } from "../ir/stream.ts";
import type { Capabilities } from "../report/capabilities.ts";
import type { ConversionReport, ReportEntry, Severity } from "../report/report.ts";
import type { TranslationStats } from "../tools/translate.ts";
import { type PostureCarry, postureEntries } from "../posture/posture.ts";
import { type ModelChoice, modelEntry } from "./model.ts";
import { REASONING_PREFIX } from "../ir/reasoning.ts";
import { isHandshake } from "../handshake/handshake.ts";
import { opensWithSummary } from "../ir/compacted.ts";

export interface ConversionActions {
  handshake: boolean;
  /** Open calls closed with synthetic interrupted results (false: left open, --no-stub-open-calls). */
  stubbedCalls: boolean;
  tools: TranslationStats;
  /** Harness control tags in transcript text made inert. */
  neutralized: number;
  /** Terminal control and bidi characters in transcript text escaped. */
  controls?: number;
  /** Reasoning proofs detached because the target's provider would not accept them (kept for a hop back). */
  proofsDetached?: number;
  /** Reasoning blocks the target's model is shown as `[reasoning]` text (no native form there). */
  reasoningAsText?: number;
  /** Reasoning proofs whose provider the source cannot prove (recorded through a router): never replayed. */
  proofsUnproven?: number;
  /** Reasoning proofs put back from an earlier hop's provenance. */
  proofsRestored?: number;
  /** The posture the target receives, by meaning (with the original words when restored), and whose words. */
  posture?: PostureCarry;
  model?: ModelChoice;
  /** Pending facts (interrupted calls, queued input) carried from an earlier hop's handshake. */
  carried?: number;
  /** Prompts queued and never sent, written as the user's last messages. */
  queuedInThread?: number;
}

const UNANSWERED: Record<Extract<Capabilities["unansweredCalls"], string>, string> = {
  dropped: "drops such a call from what it sends, so the model never sees it",
  invented: 'sends an "aborted" output of its own',
  placeholder: "sends a placeholder pointing at a summary that does not exist",
  unanswered: "sends the call with no result at all, a request its provider's API refuses",
};

/** What a target does on resume with a call left open, an error result in the target's own words included. */
function unansweredBehaviour(target: Capabilities): string {
  const behaviour = target.unansweredCalls;
  return typeof behaviour === "string"
    ? UNANSWERED[behaviour]
    : `sends an error result of its own, ${
      JSON.stringify(behaviour.errorResult)
    }, saying nothing of what the call did`;
}

const EXAMPLES = 3;

/**
 * What the report says of a thread's messages, gathered as it passes (a thread may be too long to hold):
 * counts, and the positions of the first few of each kind.
 */
export class ThreadTally {
  asText = new Examples();
  restored = 0;
  raw = new Examples();
  images = new Examples();
  context = new Examples();
  /** The thread opens with a summary in the user's words: a target that keeps compacted history does. */
  opensWithSummary: boolean | undefined;

  /** Counts message `m`, the thread's `index`th. */
  add(m: Message, index: number): void {
    this.opensWithSummary ??= opensWithSummary(m);
    if (
      m.role === "assistant" && m.blocks.some((b) => b.type === "text" && b.text.startsWith(REASONING_PREFIX))
    ) this.asText.add(index);
    for (const b of m.blocks) if (b.type === "reasoning" && b.restored) this.restored++;
    if (m.blocks.some((b) => b.type === "raw")) this.raw.add(index);
    if (m.blocks.some((b) => b.type === "image")) this.images.add(index);
    if (m.kind === "context") this.context.add(index);
  }
}

/** How many, and where the first few are. */
class Examples {
  count = 0;
  readonly first: number[] = [];
  add(index: number) {
    this.count++;
    if (this.first.length < EXAMPLES) this.first.push(index);
  }
}

/**
 * @param thread what the live thread holds, as the target receives it
 * @param position where a tallied message ends up when the thread is written (stubs inserted before it count)
 */
export function buildReport(
  session: SessionHead,
  target: Capabilities,
  actions: ConversionActions,
  thread: ThreadTally,
  position: (index: number) => number = (i) => i,
): ConversionReport {
  const entries: ReportEntry[] = [];
  const add = (code: string, severity: Severity, count: number, detail: string, examples: string[] = []) => {
    if (count > 0) entries.push({ code, severity, count, detail, examples: examples.slice(0, EXAMPLES) });
  };
  const same = session.meta.harness === target.harness;

  // What the agent may do unasked comes first: a change there matters more than any other in the report.
  if (!same) {
    entries.push(
      ...postureEntries(
        session.meta.permissionMode,
        actions.posture,
        target.harness,
        target.permissionPosture,
      ),
    );
  }
  if (same && target.copiesOwnSessions) {
    add(
      "records-copied-verbatim",
      "info",
      1,
      "same harness: every source record is copied, ids and paths adjusted",
    );
  } else {
    reportForeign(session, target, actions, add, thread, position);
  }

  const { openToolCalls, queuedInput } = session.pending;
  const inThread = openToolCalls.filter((c) => c.messageUid);
  add(
    "open-tool-calls",
    actions.stubbedCalls ? "info" : "loss",
    inThread.length,
    actions.stubbedCalls
      ? `interrupted tool calls answered with a result saying so (on resume ${target.harness} otherwise ${
        unansweredBehaviour(target)
      })`
      : `interrupted tool calls left without a result (--no-stub-open-calls): on resume ${target.harness} ${
        unansweredBehaviour(target)
      }`,
    inThread.map((c) => c.callId),
  );
  add(
    "pending-carried",
    "info",
    actions.carried ?? 0,
    "what an earlier hop's handshake said was pending is stated again in the new handshake",
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
    "queued-input-placed",
    "info",
    actions.queuedInThread ?? 0,
    "queued user input that was never sent is the user's last message, where the harness would have sent it",
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
    "control-characters-escaped",
    "info",
    actions.controls ?? 0,
    "terminal control sequences and bidirectional overrides in transcript text were written as visible \\uXXXX escapes",
  );
  add(
    "control-tags-neutralized",
    "info",
    actions.neutralized,
    "harness control tags inside transcript text were made inert (<tag> became ‹tag›) so they cannot act as instructions",
  );
  add("handshake-added", "info", actions.handshake ? 1 : 0, "a resume handshake message was appended");
  add("notices", "warning", session.notices.length, session.notices.join("; "));
  // A note for the operator (the weekly drift job acts on it), never a loss of the conversation.
  add(
    "drift",
    "info",
    session.drift.length,
    "source shapes not described by the embedded schemas (see inspect)",
  );
  if (actions.model) entries.push(modelEntry(actions.model));

  return {
    source: { harness: session.meta.harness, id: session.meta.id },
    target: { harness: target.harness },
    lossless: !entries.some((e) => e.severity === "loss"),
    entries,
  };
}

/** Whether a thread holds nothing but earlier hops' handshakes (read only as far as it takes to tell). */
function onlyHandshakes(messages: Iterable<Message>): boolean {
  for (const m of messages) if (!isHandshake(m)) return false;
  return true;
}

type Add = (code: string, severity: Severity, count: number, detail: string, examples?: string[]) => void;

function reportForeign(
  session: SessionHead,
  target: Capabilities,
  actions: ConversionActions,
  add: Add,
  thread: ThreadTally,
  position: (index: number) => number,
) {
  const where = (examples: Examples) => examples.first.map((i) => `#${position(i)}`);
  // A branch holding nothing but an earlier hop's handshake (where a resumed target leaves it) lost nothing.
  const branches = session.threads.filter((t) =>
    t.kind === "abandoned-branch" && !onlyHandshakes(t.messages)
  );
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
    target.keepsCompactedHistory && thread.opensWithSummary
      ? `history before compaction is kept on disk (scrolled in ${target.harness}) and summarized for the model`
      : "history before compaction is summarized, not replayed",
  );

  add(
    "reasoning-proofs-dropped",
    "warning",
    actions.proofsDetached ?? 0,
    "reasoning signatures/encrypted payloads only go back to their provider: the text is kept, the proof is " +
      "remembered and restored on a hop back to it",
  );
  add(
    "reasoning-proofs-unproven",
    "warning",
    actions.proofsUnproven ?? 0,
    "reasoning signatures recorded through a router (the session's provider is not the one the signature " +
      "names) cannot be proven to be that provider's: never replayed, the text is kept",
  );
  add(
    "reasoning-shown-as-text",
    "warning",
    actions.reasoningAsText ?? 0,
    "reasoning has no native form in the target without its provider's proof: its model is shown it as " +
      "[reasoning] text, and a hop back restores it as reasoning",
  );
  add(
    "reasoning-as-text",
    "warning",
    thread.asText.count,
    "reasoning an earlier hop turned into visible text, with no provenance here to restore it: it stays text",
    where(thread.asText),
  );
  add(
    "reasoning-proofs-restored",
    "info",
    thread.restored,
    "reasoning proofs from an earlier hop restored to their native form",
  );
  add(
    "raw-items",
    "loss",
    thread.raw.count,
    "items with no equivalent in the target are not carried",
    where(thread.raw),
  );
  add(
    "images",
    "loss",
    target.images ? 0 : thread.images.count,
    "images are not carried",
    where(thread.images),
  );
  add(
    "harness-context",
    "info",
    thread.context.count,
    "text the source harness injected is not replayed as user words",
    where(thread.context),
  );
  add(
    "harness-records",
    "info",
    session.passthrough.reduce((n, r) => n + r.count, 0),
    "the source harness's own bookkeeping records (not conversation) are not carried",
    session.passthrough.map((r) => r.type),
  );
  // The target sends its own system instructions and tool schemas on resume: harness context, not conversation.
  add(
    "system-instructions",
    "supplied",
    session.meta.systemInstructions && !target.systemInstructions ? 1 : 0,
    `system instructions are not carried: ${target.harness} sends its own`,
  );
  add(
    "tool-schemas",
    "supplied",
    target.toolSchemas ? 0 : session.tools.length,
    `tool schemas are not carried: ${target.harness} offers the tools of its own configuration`,
  );
  add(
    "per-turn-models",
    "loss",
    session.meta.models.length > 1 && !target.perTurnModel ? session.meta.models.length : 0,
    "per-turn model switches collapse to one model",
    session.meta.models,
  );
}
