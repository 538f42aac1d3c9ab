/**
 * An async iterable whose source is known only after something is awaited (a module imported, a target
 * detected). An `async *` wrapper that awaits it and then `yield*`s would do, but every item would then pass
 * through one more async generator, a promise and a resumption each: a rendering yields one item per line, tens
 * of thousands. Here, once the source is open, its own `next` answers each call directly.
 */
export function deferredIterable<T>(open: () => Promise<AsyncIterable<T>>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let inner: AsyncIterator<T> | undefined;
      // Opened on the first `next`, as the wrapper generator would be (making the iterable does nothing yet),
      // and once: calls made before it is open wait for that one opening, in order.
      let opening: Promise<AsyncIterator<T>> | undefined;
      const opened = () => opening ??= open().then((source) => inner = source[Symbol.asyncIterator]());
      return {
        next: () => inner ? inner.next() : opened().then((i) => i.next()),
        // A consumer that stops early (a failed write) ends the source too, so its `finally` blocks run.
        return: async () => (await inner?.return?.()) ?? { done: true, value: undefined },
      };
    },
  };
}
