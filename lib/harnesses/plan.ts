/**
 * Builds a plan value from a store's preview and the step that carries it out. The step is a closure over
 * what planning found (rendered rows, the row a `--force` replaces, ...): nothing travels between plan and
 * commit outside the plan itself.
 */
import { InputError, messageOf, RefusedError } from "../errors.ts";
import { isBusy } from "../store/sqlite.ts";
import { targetStoreRefusal } from "./refuse.ts";
import type { CommitOptions, HandoffPlan, HandoffResult, PlanPreview } from "./types.ts";

export type Committed = Omit<HandoffResult, "plan">;

export function handoffPlan(
  preview: PlanPreview,
  carryOut: (options: CommitOptions) => Promise<Committed>,
): HandoffPlan {
  return {
    ...preview,
    async commit(options) {
      // A refused plan is never carried out, whoever holds it.
      if (preview.refusal) throw new RefusedError(preview.refusal);
      try {
        return { plan: preview, ...(await carryOut(options)) };
      } catch (error) {
        // A lock that outlasted SQLite's own wait (taking the backup, say), or damage SQLite finds only when
        // writing, is refused as planning refuses it.
        const database = preview.databases[0];
        throw database && aboutDatabase(error, database) ? targetStoreRefusal(database, error) : error;
      }
    },
  };
}

const aboutDatabase = (error: unknown, database: string): boolean =>
  isBusy(error) || (error instanceof InputError && messageOf(error).startsWith(`${database}: `));

/** A plan that cannot be carried out: it previews what was asked, and its commit() refuses with the reason. */
export function refusedPlan(preview: PlanPreview, refusal: string): HandoffPlan {
  return handoffPlan({ ...preview, refusal }, () => Promise.reject(new RefusedError(refusal)));
}
