/**
 * Which of an OpenCode session's messages make which thread, by their numbers in its index (message-index.ts),
 * as 1.18.33 shows and sends them (SessionRevert.cleanup, MessageV2.filterCompacted, read in its binary): a
 * pending revert hides the message it names and every later one (from its part on, when it names one); the
 * history before the last finished compaction is not sent again; prompts no assistant message answers at the
 * end are queued. Pure: a thread is a list of numbers, not of messages, so a streamed session's is a few bytes
 * a message.
 */
import { isObject, optStr } from "../../io/json.ts";
import { ASSISTANT, type MessageIndex, type PartFacts, partFacts, USER } from "./message-index.ts";
import type { StoredMessage } from "./stored.ts";

/**
 * Messages of a session by their numbers in its index, in a thread's order; `cut`, the one message of them
 * given only some of its parts (the one a pending revert cuts), with the facts of those parts.
 */
export interface Selection {
  numbers: Int32Array;
  cut?: { message: number; from: number; to?: number; facts: PartFacts };
}

/** The selection's `k`th message read whole by `whole` (only its parts the cut leaves it, if it is cut). */
export function wholeAt(selection: Selection, k: number, whole: (i: number) => StoredMessage): StoredMessage {
  const i = selection.numbers[k]!;
  const m = whole(i);
  const cut = selection.cut;
  return cut?.message === i ? { ...m, parts: m.parts.slice(cut.from, cut.to) } : m;
}

/** The facts of the selection's `k`th message's parts (those the cut leaves it, if it is cut). */
function factsAt(index: MessageIndex, selection: Selection, k: number): PartFacts {
  const i = selection.numbers[k]!;
  return selection.cut?.message === i ? selection.cut.facts : index.parts(i);
}

/** Messages `from` to `to` (not included) of a selection: the same numbers, not copied. */
function slice(selection: Selection, from: number, to = selection.numbers.length): Selection {
  const numbers = selection.numbers.subarray(from, to);
  return selection.cut ? { numbers, cut: selection.cut } : { numbers };
}

/** Selections one after the other (of one selection's numbers, so of one cut at most). */
function joined(cut: Selection["cut"], ...parts: Selection[]): Selection {
  const numbers = new Int32Array(parts.reduce((n, p) => n + p.numbers.length, 0));
  let at = 0;
  for (const p of parts) {
    numbers.set(p.numbers, at);
    at += p.numbers.length;
  }
  return cut ? { numbers, cut } : { numbers };
}

/**
 * The messages a pending revert leaves shown, and the ones it hides (SessionRevert.cleanup): from the message it
 * names on, or from the part it names within that message (read whole, `whole`, to find it).
 */
export function splitRevert(
  index: MessageIndex,
  revert: unknown,
  whole: (i: number) => StoredMessage,
): { live: Selection; reverted: Selection } {
  const all: Selection = { numbers: new Int32Array(index.length) };
  for (let i = 0; i < index.length; i++) all.numbers[i] = i;
  const messageID = isObject(revert) ? optStr(revert.messageID) : undefined;
  let at = -1;
  for (let i = 0; messageID !== undefined && at < 0 && i < index.length; i++) {
    if (index.is(i, messageID)) at = i;
  }
  if (at < 0) return { live: all, reverted: slice(all, 0, 0) };
  const partID = isObject(revert) ? optStr(revert.partID) : undefined;
  const parts = partID === undefined ? [] : whole(at).parts;
  const cut = parts.findIndex((p) => p.id === partID);
  if (cut < 0) {
    // A part it no longer finds: the message from that part on is gone, and what is left of it stays.
    const keep = partID === undefined ? at : at + 1;
    return { live: slice(all, 0, keep), reverted: slice(all, keep) };
  }
  const cutAt = (from: number, to?: number) => ({
    message: at,
    from,
    ...(to === undefined ? {} : { to }),
    facts: partFacts(parts.slice(from, to)),
  });
  return {
    live: { numbers: all.numbers.subarray(0, at + 1), cut: cutAt(0, cut) },
    reverted: { numbers: all.numbers.subarray(at), cut: cutAt(cut) },
  };
}

/**
 * The messages OpenCode still sends after its last finished compaction (filterCompacted), and the ones it does
 * not: walking back from the newest, it stops at a compaction request a finished summary answers; a request
 * keeping a tail (`tail_start_id`) keeps the messages from that one on, sent after the summary.
 */
export function splitCompacted(
  index: MessageIndex,
  messages: Selection,
): { kept: Selection; compacted: Selection } {
  const summarized = new Set<string>();
  let start = 0;
  let tailFrom: string | undefined;
  for (let k = messages.numbers.length - 1; k >= 0; k--) {
    const i = messages.numbers[k]!;
    if (tailFrom !== undefined) {
      if (index.is(i, tailFrom)) {
        start = k;
        break;
      }
      continue;
    }
    const role = index.role(i);
    // The id is made only once a summary has named any.
    if (role === USER && summarized.size && summarized.has(index.id(i))) {
      const request = factsAt(index, messages, k).compaction;
      if (!request) continue;
      tailFrom = request.tail;
      if (tailFrom === undefined || index.is(i, tailFrom)) {
        start = k;
        break;
      }
      continue;
    }
    if (role === ASSISTANT && index.summary(i) && index.finished(i) && !index.failed(i)) {
      const parent = index.parent(i);
      if (parent) summarized.add(parent);
    }
  }
  const kept = slice(messages, start);
  return { kept: withTailAfterSummary(index, kept), compacted: slice(messages, 0, start) };
}

/** A kept tail sent after the summary that replaced what came before it, as OpenCode orders them. */
function withTailAfterSummary(index: MessageIndex, kept: Selection): Selection {
  const { numbers } = kept;
  let requestAt = numbers.length - 1;
  while (
    requestAt >= 0 && !(index.role(numbers[requestAt]!) === USER && factsAt(index, kept, requestAt).tailed)
  ) {
    requestAt--;
  }
  if (requestAt < 0) return kept;
  const request = numbers[requestAt]!;
  const tail = factsAt(index, kept, requestAt).compaction!.tail;
  const requestId = index.id(request);
  let summaryAt = requestAt + 1;
  while (
    summaryAt < numbers.length &&
    !(index.role(numbers[summaryAt]!) === ASSISTANT && index.summary(numbers[summaryAt]!) &&
      index.parent(numbers[summaryAt]!) === requestId)
  ) summaryAt++;
  let tailAt = 0;
  while (tailAt < numbers.length && !(tail !== undefined && index.is(numbers[tailAt]!, tail))) tailAt++;
  if (tailAt >= requestAt || summaryAt >= numbers.length) return kept;
  return joined(
    kept.cut,
    slice(kept, requestAt, summaryAt + 1),
    slice(kept, tailAt, requestAt),
    slice(kept, summaryAt + 1),
  );
}

/**
 * The trailing prompts no assistant message answers (none names it as its parentID): typed while OpenCode was
 * busy, or never sent.
 */
export function splitQueued(
  index: MessageIndex,
  messages: Selection,
): { turns: Selection; queued: Selection } {
  const { numbers } = messages;
  // The prompts that may be queued: the trailing ones the user typed; only their ids are looked for.
  let from = numbers.length;
  while (from > 0 && index.role(numbers[from - 1]!) === USER && factsAt(index, messages, from - 1).typed) {
    from--;
  }
  const prompts = new Set<string>();
  for (let k = from; k < numbers.length; k++) prompts.add(index.id(numbers[k]!));
  const answered = new Set<string>();
  for (let k = 0; prompts.size && k < numbers.length; k++) {
    const parent = index.role(numbers[k]!) === ASSISTANT ? index.parent(numbers[k]!) : undefined;
    if (parent !== undefined && prompts.has(parent)) answered.add(parent);
  }
  let end = numbers.length;
  while (end > from && !answered.has(index.id(numbers[end - 1]!))) end--;
  return { turns: slice(messages, 0, end), queued: slice(messages, end) };
}
