/**
 * What a Hermes session's head needs of its live thread, noted message by message as the rows pass, so a
 * streamed thread is never held: each message's row key (to check a later pass reads the same rows), its
 * models, the first title a person typed, and the messages pending state is found from. A held read notes the
 * same facts, so held and streamed sessions are built by one code path.
 */
import type { Message, Pending } from "../../ir/schema.ts";
import { findPending } from "../../ir/pending.ts";
import { firstUserTitle } from "../../ir/summary.ts";

/** A live message as findPending sees it: its calls and results alone, with its place in the thread. */
interface Witness {
  at: number;
  message: Message;
}

export class LiveFacts {
  /** Each live message's row key, in thread order. */
  readonly keys: number[] = [];
  /** Distinct models in the order they were first used. */
  readonly models = new Set<string>();
  /** The title of the first live message a person typed (see firstUserTitle). */
  title: string | undefined;
  /** Messages that make or answer calls. */
  private readonly calling: Witness[] = [];
  private lastAssistant: Witness | undefined;
  private lastTurn: Witness | undefined;

  note(message: Message, key: number): void {
    const at = this.keys.push(key) - 1;
    if (message.model) this.models.add(message.model);
    this.title ??= firstUserTitle([message]);
    const blocks = message.blocks.filter((b) => b.type === "tool_call" || b.type === "tool_result");
    if (!blocks.length && message.role !== "assistant" && message.kind !== "turn") return;
    const { uid, parentUid, role, kind } = message;
    const witness = {
      at,
      message: {
        uid,
        parentUid,
        role,
        kind,
        // Neither a call's input nor a result's content tells whether the call is open.
        blocks: blocks.map((b) =>
          b.type === "tool_call" ? { ...b, input: undefined } : { ...b, content: [] }
        ),
      },
    };
    if (blocks.length) this.calling.push(witness);
    if (role === "assistant") this.lastAssistant = witness;
    if (kind === "turn") this.lastTurn = witness;
  }

  /**
   * The pending state the whole live thread gives, found from the witnesses alone: those that make or answer
   * calls, the last response and the last turn (findPending looks at nothing else), with the place where the
   * rows show a turn was cut off counted among them.
   */
  pending(): Pending {
    const witnesses = [...this.calling];
    for (const w of [this.lastAssistant, this.lastTurn]) if (w && !witnesses.includes(w)) witnesses.push(w);
    witnesses.sort((a, b) => a.at - b.at);
    const cut = this.cutOff();
    const abortedAt = cut === undefined ? [] : [witnesses.filter((w) => w.at < cut).length];
    return findPending(witnesses.map((w) => w.message), [], abortedAt);
  }

  /**
   * Where the rows last show a turn was cut off (findPending counts only the last such place). Hermes answers
   * every call it starts or cancels itself (an interrupted command gets `[Command interrupted]`, a skipped one
   * a "skipped"/"cancelled" result, then the turn closes with "Operation interrupted."), so a call with no
   * answer at all, followed by more of the conversation, was cut off outside Hermes's own flow: its process
   * was killed mid-call, or it came from another harness through a handoff and Hermes resumed it (its stand-in
   * answer on resume, "[Result unavailable — see context summary above]", is sent to the model but never
   * stored). Such a call is still pending wherever it sits.
   */
  private cutOff(): number | undefined {
    const answered = new Set(
      this.calling.flatMap((w) =>
        w.message.blocks.flatMap((b) => (b.type === "tool_result" ? [b.callId] : []))
      ),
    );
    const last = this.calling.findLast((w) =>
      w.message.role === "assistant" && w.at < this.keys.length - 1 &&
      w.message.blocks.some((b) => b.type === "tool_call" && !answered.has(b.id))
    );
    return last && last.at + 1;
  }
}
