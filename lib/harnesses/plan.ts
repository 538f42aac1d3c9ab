/**
 * Builds a plan value from a store's preview and the step that carries it out. The step is a closure over
 * what planning found (rendered rows, the row a `--force` replaces, ...): nothing travels between plan and
 * commit outside the plan itself.
 */
import { RefusedError } from "../errors.ts";
import { isBusy } from "../store/sqlite.ts";
import { refuse } from "./refuse.ts";
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
        // A lock that outlasted SQLite's own wait (taking the backup, say) is refused as every lock is.
        const database = preview.databases[0];
        throw database && isBusy(error) ? refuse.locked(database) : error;
      }
    },
  };
}

/** A plan that cannot be carried out: it previews what was asked, and its commit() refuses with the reason. */
export function refusedPlan(preview: PlanPreview, refusal: string): HandoffPlan {
  return handoffPlan({ ...preview, refusal }, () => Promise.reject(new RefusedError(refusal)));
}
