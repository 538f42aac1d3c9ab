/**
 * The order sessions are listed in: `list`, the references that count sessions (lib/pipeline/reference.ts),
 * `current` (lib/pipeline/current.ts) and the TUI's picker all share it.
 */
import { byCodeUnit } from "../io/compare.ts";
import type { SessionSummary } from "../harnesses/types.ts";

/**
 * The order `list` shows and `latest` / `codex~2` count in: the last message first (UPDATED, one rule for every
 * harness: lib/harnesses/updated.ts, each time in one UTC form, so text compares as time); sessions updated at
 * the same moment by id, so the N-th newest is the same session on every run (by code unit: lib/io/compare.ts).
 */
export function newestFirst(sessions: readonly SessionSummary[]): SessionSummary[] {
  return [...sessions].sort(newerFirst);
}

/** The comparator of that order, for lists merged store by store. */
export const newerFirst = (a: SessionSummary, b: SessionSummary): number =>
  byCodeUnit(b.updatedAt ?? "", a.updatedAt ?? "") || byCodeUnit(a.id, b.id);
