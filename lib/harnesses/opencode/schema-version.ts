/**
 * The schema OpenCode's database is at, and whether session-bridge knows it. OpenCode (Drizzle) records every
 * migration it applied as a row of `migration` (id = the migration's folder name) and applies the missing ones
 * each time it opens the database. The rows we write are the rows of the migration sets captured here, so a
 * database whose set is another one is refused rather than guessed at: a newer OpenCode may have moved the
 * conversation elsewhere (the 2.0 line keeps it in `session_v2` tables), an older one may lack a column.
 */
import type { DatabaseSync } from "node:sqlite";
import { InputError } from "../../errors.ts";
import { hasTable } from "../../store/sqlite.ts";

/** A migration set captured from a release, and the release (what `session.version` records). */
export interface KnownSchema {
  version: string;
  migrations: readonly string[];
}

/**
 * 1.18.33's 38 migrations (fixtures captured on 2026-12-03: `SELECT id FROM migration`). 1.17.19, the older
 * version certified (harness-versions-older.json), creates the very same set and schema (`.schema` identical but
 * for the order of the migration table, checked 2026-12-03), so its databases are this one.
 */
const V1_18_33: KnownSchema = {
  version: "1.18.33",
  migrations: [
    "20260127222353_familiar_lady_ursula",
    "20260211171708_add_project_commands",
    "20260213144116_wakeful_the_professor",
    "20260225215848_workspace",
    "20260227213759_add_session_workspace_id",
    "20260228203230_blue_harpoon",
    "20260303231226_add_workspace_fields",
    "20260309230000_move_org_to_state",
    "20260312043431_session_message_cursor",
    "20260323234822_events",
    "20260410174513_workspace-name",
    "20260413175956_chief_energizer",
    "20260423070820_add_icon_url_override",
    "20260427172553_slow_nightmare",
    "20260428004200_add_session_path",
    "20260501142318_next_venus",
    "20260504145000_add_sync_owner",
    "20260507164347_add_workspace_time",
    "20260510033149_session_usage",
    "20260511000411_data_migration_state",
    "20260511173437_session-metadata",
    "20260601010001_normalize_storage_paths",
    "20260601202201_amazing_prowler",
    "20260602002951_lowly_union_jack",
    "20260602182828_add_project_directories",
    "20260603001617_session_message_projection_indexes",
    "20260603040000_session_message_projection_order",
    "20260603141458_session_input_inbox",
    "20260603160727_jittery_ezekiel_stane",
    "20260604172448_event_sourced_session_input",
    "20260605003541_add_session_context_snapshot",
    "20260605042240_add_context_epoch_agent",
    "20260611035744_credential",
    "20260611192811_lush_chimera",
    "20260612174303_project_dir_strategy",
    "20260622142730_simplify_session_context_epoch",
    "20260622170816_reset_v2_session_state",
    "20260622202450_simplify_session_input",
  ],
};

export const KNOWN_SCHEMAS: readonly KnownSchema[] = [V1_18_33];

/**
 * The known schema `database` is at; throws (`<database>: why`, which planning turns into a refusal) when its
 * migration set is not one session-bridge knows.
 */
export function knownSchema(db: DatabaseSync, database: string): KnownSchema {
  if (!hasTable(db, "migration")) {
    throw new InputError(`${database}: no migration table (not an OpenCode database)`);
  }
  const applied = new Set(
    (db.prepare("SELECT id FROM migration").all() as { id: unknown }[]).map((r) => String(r.id)),
  );
  const known = KNOWN_SCHEMAS.find((s) =>
    s.migrations.length === applied.size && s.migrations.every((m) => applied.has(m))
  );
  if (known) return known;
  const newest = KNOWN_SCHEMAS.at(-1)!;
  const unknown = [...applied].filter((m) => !KNOWN_SCHEMAS.some((s) => s.migrations.includes(m)));
  if (unknown.length) {
    throw new InputError(
      `${database}: migration ${unknown.sort().at(-1)} is newer than any OpenCode session-bridge knows ` +
        `(newest known: ${newest.version}); session-bridge does not guess at its tables`,
    );
  }
  throw new InputError(
    `${database}: its ${applied.size} migrations are no set session-bridge knows (an older OpenCode left it; ` +
      `run opencode ${newest.version} there once so it brings the database up to date)`,
  );
}
