/** One session as the TUI's picker lists it, and searches it (search.ts) and reads it (data.ts). */
import type { SessionSummary } from "../mod.ts";
import type { Holder } from "../io/held-open.ts";

export interface Row {
  /** Unique across stores: sessions sharing one database file differ by id, files by path. */
  key: string;
  summary: SessionSummary;
  /** Bytes of the session's file; for a database row, of the whole database (shown with a `db` mark). */
  size?: number;
  sharedFile: boolean;
  live: boolean;
  /** The process holding the session's file open, when that is what makes it live. */
  heldBy?: Holder;
}
