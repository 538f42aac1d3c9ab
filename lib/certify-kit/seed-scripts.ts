/**
 * What a person does to seed a session, the same in every harness: the one-shot seeding's two turns, and the
 * words typed into a TUI for the interactive and interrupted styles. A driver says only what is its own: how
 * it runs one turn, how its TUI takes words typed while the agent is busy, and how that TUI is interrupted.
 */
import type { InterruptPrompts, Seeded, SeedPrompts, Turn } from "./driver.ts";
import type { SeedingTui } from "./tmux.ts";

/** One one-shot turn: a new session (no `args`) or one continued by the harness's resume arguments. */
export type OneShot = (args: string[], prompt: string) => Promise<Turn & { id?: string }>;

/**
 * The one-shot seeding: the first prompt in a new session, then the tool prompt in that session (`resumeArgs`
 * of its id). A failure names the harness and, for a first turn that gave no id, where the id was looked for.
 */
export async function seedTwoOneShots(
  harness: string,
  oneShot: OneShot,
  prompts: SeedPrompts,
  resumeArgs: (id: string) => string[],
  idSource: string,
): Promise<Seeded> {
  const first = await oneShot([], prompts.first);
  if (!first.ok || !first.id) {
    throw new Error(`${harness} seed failed: ${first.detail || `no session id in ${idSource}`}`);
  }
  const second = await oneShot(resumeArgs(first.id), prompts.tool);
  if (!second.ok) throw new Error(`${harness} seed failed: ${second.detail}`);
  return { id: first.id, firstReply: first.reply };
}

/**
 * Runs `drive` against a TUI `start` opens, then leaves it as a person does; the session it recorded and the
 * first answer. The pane is closed whatever happens.
 */
export async function typedSeeding<T extends SeedingTui>(
  start: () => Promise<T>,
  drive: (tui: T) => Promise<string>,
): Promise<Seeded> {
  const tui = await start();
  try {
    const firstReply = await drive(tui);
    await tui.exit();
    return { id: tui.sessionId(), firstReply };
  } finally {
    tui.close();
  }
}

/** The interactive seeding: the first prompt and the tool prompt typed, each answered; the first answer. */
export async function typeTwoTurns(tui: Pick<SeedingTui, "ask">, prompts: SeedPrompts): Promise<string> {
  const firstReply = await tui.ask(prompts.first);
  await tui.ask(prompts.tool);
  return firstReply;
}

/** How one TUI takes what the interrupted seeding does while the agent is busy. */
export interface BusyKeys<T> {
  /** Types the queued words while the slow call runs (Enter in most TUIs; some have a key of their own). */
  queue(tui: T, words: string): Promise<void>;
  /** Interrupts the running call as a person does. */
  interrupt(tui: T, queued: string): Promise<void> | void;
}

/** Enter queues the words, Escape interrupts: what most TUIs take. */
export const ENTER_THEN_ESCAPE: BusyKeys<SeedingTui> = {
  queue: (tui, words) => tui.submit(words),
  interrupt: (tui) => tui.pane.press("Escape"),
};

/**
 * The interrupted seeding: two answered turns, a third whose shell call runs long, words queued while it runs,
 * then the call interrupted and its end recorded. The first answer.
 */
export async function typeInterrupted<T extends SeedingTui>(
  tui: T,
  prompts: InterruptPrompts,
  keys: BusyKeys<T>,
): Promise<string> {
  const firstReply = await typeTwoTurns(tui, prompts);
  await tui.submit(prompts.slow);
  await tui.waitForRunningCommand(prompts.slowCommand);
  await keys.queue(tui, prompts.queued);
  await tui.waitForQueued(prompts.queued);
  await keys.interrupt(tui, prompts.queued);
  await tui.waitForInterruption(prompts.queued);
  return firstReply;
}
