/**
 * Waiting, in a TUI driven through tmux, on what the harness records in its own store as it goes: a seeding
 * knows a turn is over when its answer is recorded and the screen no longer shows the agent busy. The same in
 * every harness whose TUI records as it goes; each says only how to read its store and its screen.
 */
import { type TmuxPane, waitUntil } from "./tmux.ts";

export interface StoreWatchOptions<M> {
  /** The harness's name in a timeout's message ("OpenCode's answer to ..."). */
  who: string;
  /** Everything recorded so far in the session the TUI records into (none before its first prompt). */
  messages(): M[];
  /** Whether the screen shows the agent at work. */
  busy(screen: string): boolean;
  /** Whether the screen shows the TUI ready for input (when busy's absence alone does not say so). */
  ready?(screen: string): boolean;
  /** The answer recorded for `prompt` among the messages recorded since it was typed. */
  answerAfter(after: M[], prompt: string): string | undefined;
  timeoutMs: number;
}

export interface StoreWatch<M> {
  /**
   * Resolves with what `check` finds in the recorded messages once the screen shows the agent `busy` (idle by
   * default); a timeout names `what` and the screen's last lines.
   */
  recorded<T>(check: (all: M[]) => T | undefined, what: string, busy?: boolean): Promise<T>;
  /** Types and submits `prompt`, and resolves with its answer once recorded, the agent idle. */
  ask(prompt: string): Promise<string>;
}

export function storeWatch<M>(pane: TmuxPane, options: StoreWatchOptions<M>): StoreWatch<M> {
  const lastLines = () => pane.screen().split("\n").filter((l) => l.trim()).slice(-4).join(" | ");
  const settled = (screen: string, busy: boolean) =>
    busy ? options.busy(screen) : !options.busy(screen) && (options.ready?.(screen) ?? true);
  const recorded = <T>(check: (all: M[]) => T | undefined, what: string, busy = false) =>
    waitUntil(
      () => {
        const found = check(options.messages());
        return found !== undefined && settled(pane.screen(), busy) ? found : undefined;
      },
      what,
      options.timeoutMs,
      lastLines,
    );
  return {
    recorded,
    async ask(prompt) {
      const seen = options.messages().length;
      await pane.submit(prompt);
      return await recorded(
        (all) => options.answerAfter(all.slice(seen), prompt),
        `${options.who}'s answer to ${JSON.stringify(prompt.slice(0, 40))}`,
      );
    },
  };
}
