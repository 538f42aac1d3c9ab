/**
 * The `threads` row that makes a rollout visible to `codex resume` (its picker reads only this index; a file
 * with no row is invisible, and Codex does not rescan later). Columns come and go between Codex versions, so
 * the row is fitted to the table's own columns (PRAGMA table_info): every column we know gets a meaningful
 * value, unknown columns are left to their defaults, and an unknown NOT NULL column without a default refuses
 * the handoff instead of guessing.
 */
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import type { CodexThreadsRow } from "../../generated/codex/0.169.0.ts";
import type { ColumnInfo, Row } from "../../store/sqlite.ts";
import { RefusedError } from "../../errors.ts";
import { firstUserTitle } from "../../ir/summary.ts";
import { compactedHistory } from "../../ir/compacted.ts";
import { titleText } from "../../io/control-characters.ts";
import type { CodexTarget } from "./target.ts";
import type { RolloutDescription } from "./describe.ts";
import { ORIGINATOR, postureOf } from "./write.ts";
import { textOf } from "./items.ts";

/** Without these Codex can neither list nor resume a thread: a table lacking one is not a store we know. */
export const REQUIRED_COLUMNS = [
  "id",
  "rollout_path",
  "created_at",
  "updated_at",
  "source",
  "model_provider",
  "cwd",
];

const PREVIEW_MAX = 2000;

export interface RowFacts {
  session: SessionHead;
  /** How the thread opens (see threadOpening). */
  opening: Opening;
  options: RenderOptions;
  target: CodexTarget;
  rolloutPath: string;
  /** For a copied rollout: what the file says about itself, which the row repeats (describe.ts). */
  described?: RolloutDescription;
}

/** Every value we can give, by column name; times clamped to `now` like the rendered records. */
export function rowValues(
  { session, opening, options, target, rolloutPath, described }: RowFacts,
): Partial<CodexThreadsRow> {
  const now = options.now.getTime();
  const ms = (iso: string | undefined) => Math.min(now, Date.parse(iso ?? "") || now);
  const created = ms(described?.createdAt ?? session.meta.createdAt);
  const updated = Math.max(created, ms(session.meta.updatedAt));
  const { firstUser, derived } = opening;
  const preview = (firstUser ?? "").slice(0, PREVIEW_MAX) ||
    `Handed off from ${session.meta.harness} session ${session.meta.id}`;
  const title = titleText(options.title ?? session.meta.title ?? derived ?? preview) || preview;
  const model = options.model ?? target.model;
  const policies = postureOf(options, target);
  const rendered = {
    source: "cli",
    thread_source: "user",
    originator: ORIGINATOR,
    model: model ?? null,
    sandbox_policy: JSON.stringify({ type: policies.sandbox }),
    approval_mode: policies.approval,
    cli_version: target.version,
    history_mode: target.paginated ? "paginated" : "legacy",
  };
  const fileSays = described
    ? {
      source: described.source,
      thread_source: described.threadSource ?? rendered.thread_source,
      originator: described.originator,
      model: described.model ?? rendered.model,
      sandbox_policy: described.sandbox ?? rendered.sandbox_policy,
      approval_mode: described.approval ?? rendered.approval_mode,
      cli_version: described.cliVersion,
      history_mode: described.historyMode,
    }
    : rendered;
  return {
    id: options.id,
    rollout_path: rolloutPath,
    created_at: Math.floor(created / 1000),
    created_at_ms: created,
    updated_at: Math.floor(updated / 1000),
    updated_at_ms: updated,
    // The handoff is the thread's latest activity, so it sorts first in the picker.
    recency_at: Math.floor(now / 1000),
    recency_at_ms: now,
    ...fileSays,
    model_provider: target.modelProvider,
    cwd: options.cwd,
    title,
    // The picker shows `name` when set, else the preview: a title of its own is shown by naming the thread.
    name: title !== titleText(derived ?? "") && title !== titleText(preview) ? title : null,
    preview,
    first_user_message: firstUser ?? "",
    tokens_used: session.meta.usage
      ? session.meta.usage.inputTokens + session.meta.usage.cacheReadTokens + session.meta.usage.outputTokens
      : 0,
    archived: 0,
  };
}

/** How a thread opens: what the index row shows of it. */
export interface Opening {
  /** The person's first words, as Codex keeps them in `first_user_message` and shows in `preview`. */
  firstUser?: string;
  /** The title they give (see firstUserTitle). */
  derived?: string;
}

/** The thread's opening, read from its start only as far as it takes (compacted history first, for the title). */
export async function threadOpening(session: SessionStream): Promise<Opening> {
  let derived = firstUserTitle(compactedHistory(session));
  let firstUser: string | undefined;
  for await (const m of session.messages) {
    if (m.role !== "user" || m.kind !== "turn") continue;
    if (firstUser === undefined) {
      const text = textOf(m.blocks).trim();
      if (text) firstUser = text;
    }
    derived ??= firstUserTitle([m]);
    if (firstUser !== undefined && derived !== undefined) break;
  }
  return { ...(firstUser !== undefined ? { firstUser } : {}), ...(derived !== undefined ? { derived } : {}) };
}

/** The row fitted to this table, or a refusal naming the column that cannot be filled. */
export function fitRow(columns: ColumnInfo[], values: Partial<CodexThreadsRow>, table: string): Row {
  const names = new Set(columns.map((c) => c.name));
  const missing = REQUIRED_COLUMNS.find((c) => !names.has(c));
  if (missing) {
    throw new RefusedError(
      `${table} has no column ${missing} (not a Codex thread index session-bridge knows)`,
    );
  }
  const known = values as Row;
  const row: Row = {};
  for (const column of columns) {
    const value = known[column.name];
    if (value !== undefined && !(value === null && column.notnull)) row[column.name] = value;
    else if (column.notnull && column.defaultValue === null && !column.primaryKey) {
      throw new RefusedError(
        `${table} has a required column ${column.name} that session-bridge cannot fill (refusing to guess)`,
      );
    }
  }
  return row;
}
