/**
 * Which steps of making a message fit for its target (translating its tool calls, neutralizing its text,
 * detaching its reasoning proofs) changed it, as the survey found, one byte a message. The writer's pass makes
 * each message again (a thread made fit is never held) but runs only the steps that changed it: every step is a
 * pure function of the message's content that gives back the very message it was given when it changes
 * nothing, so skipping one that changed nothing gives the same message, and saves scanning every text again.
 */
import { uint8Column } from "../io/columns.ts";

/** One bit a step; a message no step changed is 0. */
export const TRANSLATE = 1;
export const NEUTRALIZE = 2;
export const DETACH = 4;
export const ALL_STEPS = TRANSLATE | NEUTRALIZE | DETACH;

/** The steps that changed each message of one thread, in the order the thread is read. */
export class StepLog {
  private readonly steps = uint8Column();

  push(steps: number): void {
    this.steps.push(steps);
  }

  /**
   * The steps to run on the message at `index`: those that changed it, or all of them past what the survey
   * saw (a thread read again must give the same messages, but nothing is lost by checking).
   */
  at(index: number): number {
    return index < this.steps.length ? this.steps.get(index) : ALL_STEPS;
  }
}
