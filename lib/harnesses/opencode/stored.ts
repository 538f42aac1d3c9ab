/**
 * An OpenCode session as its rows hold it (rows.ts reads them from `opencode.db`, export-file.ts from a file
 * `opencode export` printed): the `session` row, each message's and part's id and `data`, and the sessions its
 * task calls started. Pure data: decode.ts makes the IR of it.
 */
import type { Json } from "../../io/json.ts";

/** The `session` columns the reader uses (1.18.33's names). */
export interface SessionRow {
  id: string;
  parent_id: string | null;
  title: string;
  directory: string;
  version: string;
  /** JSON `{messageID, partID?, snapshot?, diff?}` while a revert (/undo) is pending, else null. */
  revert: string | null;
  /** JSON `{id, providerID, variant?}`: the model the session runs on. */
  model: string | null;
  /** JSON `[{permission, pattern, action}]`: the session's own permission rules, over its agent's. */
  permission: string | null;
  cost: number;
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
  time_created: number;
  time_updated: number;
  time_archived: number | null;
}

export interface StoredPart {
  id: string;
  data: Json;
}

export interface StoredMessage {
  id: string;
  time_created: number;
  data: Json;
  parts: StoredPart[];
}

/** A session's row, its messages (held, or an index of them) and the sessions its task calls started. */
export interface SessionTree<M> {
  /** The database, as errors and locators name it. */
  database: string;
  row: SessionRow;
  messages: M;
  /** Sessions a task call of this one started, each with its own. */
  subagents: SessionTree<M>[];
}

/** A session read whole. */
export type StoredSession = SessionTree<StoredMessage[]>;
