/**
 * Which of a transcript's records make the live thread, and which threads are kept apart, from its tree
 * (tree.ts). Records are named by number throughout; a thread's messages come from `full`.
 */
import type { Message, Thread } from "../../ir/schema.ts";
import type { RecordTree } from "./tree.ts";

/** Uuids (by number) already placed in a thread: no message lands in two. */
type Claimed = Uint8Array;

/**
 * The live thread is the parent chain of the newest main-thread leaf. Compaction boundaries cut the chain
 * (their parent is null and `logicalParentUuid` points at what they replaced), so history before a boundary
 * is kept as a `compacted` thread, except the messages 2.1.x preserves verbatim, which are replayed right after
 * the summary; every other leaf's private stretch is an abandoned branch.
 */
export function resolveLiveThread(
  tree: RecordTree,
  full: (r: number) => Message,
): { chain: number[]; threads: Thread[] } {
  const messagesOf = (list: number[]): Message[] => list.flatMap((r) => (tree.hasFacts(r) ? [full(r)] : []));
  // Records are visited in reading order, not gathered: a list of hundreds of thousands each time would cost
  // more than the tree.
  const main = (r: number) => tree.isNode(r) && !tree.sidechain(r);
  const hasChild = new Uint8Array(tree.uuidCount);
  const replaced = new Uint8Array(tree.uuidCount);
  for (let r = 0; r < tree.size; r++) {
    if (!main(r)) continue;
    if (tree.parentOf(r) !== -1) hasChild[tree.parentOf(r)] = 1;
    if (tree.logicalParentOf(r) !== -1) replaced[tree.logicalParentOf(r)] = 1;
  }
  // A leaf may be a record without a message (a trailing attachment): it still ends its chain. What a
  // compaction replaced has no child either, but it is history, not a leaf.
  const leaves: number[] = [];
  for (let r = 0; r < tree.size; r++) {
    if (main(r) && !hasChild[tree.uuidOf(r)] && !replaced[tree.uuidOf(r)]) leaves.push(r);
  }
  const liveLeaf = leaves.at(-1);
  const claimed: Claimed = new Uint8Array(tree.uuidCount);
  let chain = walkUp(tree, liveLeaf === undefined ? -1 : tree.uuidOf(liveLeaf), claimed);

  for (const boundary of chain.filter((r) => tree.preservedOf(r))) {
    const { head, tail, anchor } = tree.preservedOf(boundary)!;
    const kept = walkUp(tree, tail, claimed, head);
    const at = chain.findIndex((r) => tree.uuidOf(r) === anchor);
    if (at !== -1) chain = [...chain.slice(0, at + 1), ...kept, ...chain.slice(at + 1)];
  }

  withQueuedPrompts(tree, chain, leaves, claimed);

  const threads: Thread[] = [];
  const compacted = chain
    .filter((r) => tree.logicalParentOf(r) !== -1)
    .flatMap((boundary) =>
      walkUp(tree, firstUnclaimedAncestor(tree, tree.logicalParentOf(boundary), claimed), claimed)
    );
  if (compacted.length) threads.push({ id: "compacted", kind: "compacted", messages: messagesOf(compacted) });

  for (const leaf of leaves) {
    if (leaf === liveLeaf) continue;
    const branch = messagesOf(walkUp(tree, tree.uuidOf(leaf), claimed));
    if (branch.length) {
      threads.push({
        id: `branch-${tree.uuidText(tree.uuidOf(leaf))}`,
        kind: "abandoned-branch",
        messages: branch,
      });
    }
  }
  const side: number[] = [];
  for (let r = 0; r < tree.size; r++) {
    if (tree.isNode(r) && tree.sidechain(r) && !claimed[tree.uuidOf(r)]) side.push(r);
  }
  if (side.length) threads.push({ id: "sidechain", kind: "sidechain", messages: messagesOf(side) });
  return { chain, threads };
}

/**
 * A prompt typed while a tool ran is recorded as a child of the running call's tool_use, beside the chain
 * that goes on with the call's cancelled result and the interruption marker: a leaf of its own, though the
 * model got it right after that result (Claude Code's own resume loses it). Such a queued prompt is put back
 * where the model read it: after the user records that follow its parent, before the next answer, and the
 * messages' parents are changed to that order (tree.moveTo). The chain is changed in place.
 */
function withQueuedPrompts(tree: RecordTree, out: number[], leaves: number[], claimed: Claimed): void {
  for (const leaf of leaves) {
    if (!tree.queuedPrompt(leaf) || claimed[tree.uuidOf(leaf)]) continue;
    const parentAt = out.findIndex((r) => tree.uuidOf(r) === tree.parentOf(leaf));
    if (parentAt === -1) continue;
    let at = parentAt + 1;
    while (at < out.length && tree.role(out[at]!) !== "assistant") at++;
    // The messages say where they now stand, so a Claude Code copy links them that way (see write.ts).
    tree.moveTo(leaf, tree.uuidOf(out[at - 1]!));
    if (at < out.length) tree.moveTo(out[at]!, tree.uuidOf(leaf));
    out.splice(at, 0, leaf);
    claimed[tree.uuidOf(leaf)] = 1;
  }
}

/** What a boundary replaced, above the messages it preserved (those already belong to the live thread). */
function firstUnclaimedAncestor(tree: RecordTree, uuid: number, claimed: Claimed): number {
  let r = tree.nodeOf(uuid);
  while (r !== -1 && claimed[tree.uuidOf(r)]) r = tree.parentNode(r);
  return r === -1 ? -1 : tree.uuidOf(r);
}

/**
 * Records from uuid number `uuid` up its parent chain, oldest first: up to (not including) the first one
 * already claimed by another thread, or up to and including uuid `last`. Each is claimed, so no message lands
 * in two threads.
 */
function walkUp(tree: RecordTree, uuid: number, claimed: Claimed, last = -1): number[] {
  const out: number[] = [];
  for (
    let r = tree.nodeOf(uuid);
    r !== -1 && !claimed[tree.uuidOf(r)];
    r = tree.uuidOf(r) === last ? -1 : tree.parentNode(r)
  ) {
    claimed[tree.uuidOf(r)] = 1;
    out.push(r);
  }
  return out.reverse();
}
