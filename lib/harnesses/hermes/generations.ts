/**
 * Hermes `state.db` schema generations we have captured: the `schema_version` a database reports, the harness
 * version whose embedded schemas describe it, and the columns its rows carry. Hermes adds columns on open
 * without bumping `schema_version`, so a database is matched to a generation by version and then checked
 * column by column (PRAGMA table_info), never by position.
 */
import generations from "../../generated/hermes-generations.json" with { type: "json" };
import { EMBEDDED_SCHEMAS } from "../../generated/schemas.ts";
import { compareVersions } from "../../schemas/compare.ts";

export interface Generation {
  /** The Hermes release the fixtures were captured from; names the embedded schema set. */
  version: string;
  schemaVersion: number;
  /** CREATE statements for an empty database of this generation. */
  statements: string[];
  columns: { sessions: string[]; messages: string[] };
}

function rowColumns(version: string, kind: string): string[] {
  const set = EMBEDDED_SCHEMAS.find((s) => s.harness === "hermes" && s.version === version);
  const schema = set?.records[kind] as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(schema?.properties ?? {});
}

/** REAL columns of any generation: Python holds their values as floats, and writes them so (`0.0`). */
function floatColumns(kind: string): Set<string> {
  const out = new Set<string>();
  for (const set of EMBEDDED_SCHEMAS.filter((s) => s.harness === "hermes")) {
    const schema = set.records[kind] as
      | { properties?: Record<string, { type?: string | string[] }> }
      | undefined;
    for (const [name, column] of Object.entries(schema?.properties ?? {})) {
      if ([column.type].flat().includes("number")) out.add(name);
    }
  }
  return out;
}

export const FLOAT_COLUMNS = {
  sessions: floatColumns("sessions-row"),
  messages: floatColumns("messages-row"),
};

export const GENERATIONS: Generation[] = generations
  .map((g) => ({
    ...g,
    columns: {
      sessions: rowColumns(g.version, "sessions-row"),
      messages: rowColumns(g.version, "messages-row"),
    },
  }))
  .sort((a, b) => a.schemaVersion - b.schemaVersion);

export const NEWEST_GENERATION: Generation = GENERATIONS.at(-1)!;

/** The newest captured generation not newer than `schemaVersion`; the oldest when it predates them all. */
export function generationFor(schemaVersion: number): Generation {
  return GENERATIONS.findLast((g) => g.schemaVersion <= schemaVersion) ?? GENERATIONS[0]!;
}

/**
 * Legacy gateway transcripts (`sessions/<id>.jsonl`) were written up to 0.14 only: they are checked against the
 * newest schema set that describes them, whatever generation the database beside them has.
 */
export const LEGACY_TRANSCRIPT_VERSION: string = EMBEDDED_SCHEMAS
  .filter((s) => s.harness === "hermes" && "transcript-user" in s.records)
  .map((s) => s.version)
  .sort(compareVersions)
  .at(-1) ?? NEWEST_GENERATION.version;

/**
 * The Hermes release a database of `schemaVersion` was written by, as far as the captures tell: Hermes records
 * no version of its own in `state.db`, and its schema number means nothing to a person.
 */
export function releaseOf(schemaVersion: number): string {
  const generation = generationFor(schemaVersion);
  if (schemaVersion > generation.schemaVersion) return `newer than ${generation.version}`;
  return schemaVersion < generation.schemaVersion ? `older than ${generation.version}` : generation.version;
}
