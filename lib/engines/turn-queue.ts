/**
 * Turns that must not overlap, queued in this process by key, as LazyBridge's engines queue them on locks of
 * their running event loop: one key per engine (its turns, the first that creates the conversation included),
 * one per alias (two engines on a name nobody has bound yet: the second waits and continues what the first
 * created) and one per native id (two engines resuming one conversation by id). Taken always in that order,
 * so no two turns wait on each other. Across processes nothing is queued: the registry's lock keeps each
 * write whole, and two processes starting one new name at once may still start two conversations, as
 * LazyBridge's may (the last bind wins).
 */

/** The last turn queued on each key; removed when it ends with nobody behind it. */
const tails = new Map<string, Promise<void>>();

/** Runs `body` once every turn queued on `key` before it has ended. */
export async function inTurn<T>(key: string, body: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const ended = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => ended);
  tails.set(key, tail);
  await previous;
  try {
    return await body();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
