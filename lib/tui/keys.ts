/** The keys each screen offers, and how keys reach the screen on top. */
import { createContext, useContext } from "react";
import type { Key } from "ink";

export interface KeyHelp {
  keys: string;
  does: string;
}

export const COMMON_KEYS: KeyHelp[] = [
  { keys: "↑↓ j k", does: "move" },
  { keys: "Esc", does: "back" },
  { keys: "?", does: "all keys" },
  { keys: "q", does: "quit" },
];

export type KeyHandler = (input: string, key: Key) => void;

/**
 * Keys that arrive in one burst (a paste, keys sent by tmux) reach a handler as one string: each character is
 * handed on as a key of its own, a carriage return as Enter, so `/word⏎` filters as if typed.
 */
export function eachKey(handler: KeyHandler): KeyHandler {
  return (input, key) => {
    if ([...input].length <= 1 || key.ctrl || key.meta) return handler(input, key);
    for (const c of input) {
      handler(c === "\r" || c === "\n" ? "" : c, { ...key, return: c === "\r" || c === "\n" });
    }
  };
}

/**
 * Where the app's one input listener sends keys: to the handler of the screen rendered last. A screen's own
 * listener would attach only after its first frame is drawn, and a key typed in between would be lost.
 */
export const KeyTarget = createContext<{ current: KeyHandler | undefined }>({ current: undefined });

/** Makes `handler` the one that receives keys while this screen is on top (and `active`). */
export function useKeys(handler: KeyHandler, active = true): void {
  const target = useContext(KeyTarget);
  if (active) target.current = handler;
}
