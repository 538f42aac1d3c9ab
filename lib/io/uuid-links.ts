/**
 * A map from uuid to uuid (or to nothing) for hundreds of thousands of entries: both ends numbered by one
 * UuidTable and the links kept in a column, some 30 bytes an entry and nothing for the collector to trace,
 * where a Map of strings took about 120 bytes of heap an entry.
 */
import { int32Column } from "./columns.ts";
import { UuidTable } from "./uuid-table.ts";

/** A link is kept as its target's number plus two: 0 is no entry, 1 a link to nothing. */
const NO_ENTRY = 0;
const TO_NOTHING = 1;

export class UuidLinks {
  private readonly uuids = new UuidTable();
  private readonly links = int32Column();

  set(from: string, to: string | null): void {
    const at = this.uuids.intern(from);
    this.links.set(at, to === null ? TO_NOTHING : this.uuids.intern(to) + 2);
  }

  /** Where `from` links: a uuid, null for nothing, undefined when `from` has no entry. */
  get(from: string): string | null | undefined {
    const at = this.uuids.find(from);
    const link = at === -1 ? NO_ENTRY : this.links.get(at);
    if (link === NO_ENTRY) return undefined;
    return link === TO_NOTHING ? null : this.uuids.uuidOf(link - 2);
  }
}
