/**
 * What a Hermes session's head needs of its live thread, noted message by message as the rows pass, so a
 * streamed thread is never held: each message's row key (to check a later pass reads the same rows), its
 * models, the first title a person typed, and its pending state (PendingTracker). A held read notes the same
 * facts, so held and streamed sessions are built by one code path.
 */
import type { Message, Pending } from "../../ir/schema.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { firstUserTitle } from "../../ir/summary.ts";

export class LiveFacts {
  /** Each live message's row key, in thread order. */
  readonly keys: number[] = [];
  /** Distinct models in the order they were first used. */
  readonly models = new Set<string>();
  /** The title of the first live message a person typed (see firstUserTitle). */
  title: string | undefined;
  private readonly tracker = new PendingTracker();

  note(message: Message, key: number): void {
    this.keys.push(key);
    if (message.model) this.models.add(message.model);
    this.title ??= firstUserTitle([message]);
    this.tracker.add(message);
  }

  /**
   * The pending state, with the last place the rows show a turn was cut off. Hermes answers every call it
   * starts or cancels itself (an interrupted command gets `[Command interrupted]`, a skipped one a
   * "skipped"/"cancelled" result, then the turn closes with "Operation interrupted."), so a call with no answer
   * at all, followed by more of the conversation, was cut off outside Hermes's own flow: its process was killed
   * mid-call, or it came from another harness through a handoff and Hermes resumed it (its stand-in answer on
   * resume, "[Result unavailable — see context summary above]", is sent to the model but never stored). Such a
   * call is still pending wherever it sits.
   */
  pending(): Pending {
    const cut = this.tracker.unansweredAt().findLast((at) => at < this.keys.length - 1);
    if (cut !== undefined) this.tracker.abortAt(cut + 1);
    return this.tracker.pending([]);
  }
}
