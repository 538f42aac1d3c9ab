/**
 * Which Codex a handoff writes for. The rollout format changed around 0.150: newer Codex writes "paginated"
 * history (a strictly increasing `ordinal` on every line, `item_completed` UI events), older Codex "legacy"
 * history (no ordinals, `user_message` / `agent_message` events). Each Codex keeps writing a thread in the mode
 * it was created in, so the format to write is the one the installed Codex last created a thread in:
 *
 *   1. the newest thread in the `threads` index (its `cli_version` and `history_mode`),
 *   2. else the newest rollout file's `session_meta`,
 *   3. else the state database's migrations (a Codex that has never written a thread still created it): the
 *      newest Codex we know whose migrations the store has, and paginated when it has the table Codex added
 *      for migrating legacy rollouts to paginated history,
 *   4. else the override the edge read from `SESSION_BRIDGE_CODEX_VERSION`, else the newest Codex whose schemas are embedded; the format then
 *      follows from the version.
 */
import { readJsonl } from "../../io/jsonl.ts";
import { hasTable, openReadOnly, quoteIdent, type Row, tableColumns } from "../../store/sqlite.ts";
import { compareVersions } from "../../schemas/compare.ts";
import { embeddedVersions } from "../../schemas/versions.ts";
import { CODEX_DEFAULTS, type CodexConfig, readCodexConfig } from "./config.ts";
import { newestStateDb, rolloutFiles } from "./locate.ts";
import { isObject } from "../../io/json.ts";

export interface CodexTarget extends CodexConfig {
  /** The `cli_version` written: the installed Codex's. */
  version: string;
  paginated: boolean;
  /** Where the version came from, for the README's promise and for debugging a wrong guess. */
  evidence: "threads" | "rollout" | "store" | "default";
}

/** The oldest Codex seen writing paginated history (0.147.0 writes legacy, 0.169.0 paginated). */
export const FIRST_PAGINATED_VERSION = "0.169.0";

/**
 * The state-database migrations of the Codex versions whose stores are captured under fixtures/codex/
 * (threads.schema.json), and the table that arrived with paginated history (migration 47).
 */
const KNOWN_MIGRATIONS: [version: string, lastMigration: number][] = [
  ["0.147.0", 46],
  ["0.169.0", 62],
  ["0.171.0", 64],
];
const PAGINATED_TABLE = "rollout_migration_state";

interface Evidence {
  version: string;
  historyMode?: string;
  source: CodexTarget["evidence"];
}

export async function detectTarget(codexHome: string, override?: string): Promise<CodexTarget> {
  const config = readCodexConfig(codexHome);
  const found = newestThread(codexHome) ?? (await newestRollout(codexHome)) ?? storeGeneration(codexHome);
  const version = found?.version ?? defaultVersion(override);
  const paginated = found?.historyMode
    ? found.historyMode === "paginated"
    : compareVersions(version, FIRST_PAGINATED_VERSION) >= 0;
  return { ...config, version, paginated, evidence: found?.source ?? "default" };
}

/** What an empty or absent home gets: the configured default, else the newest Codex we have schemas for. */
export function defaultVersion(override?: string): string {
  return override || (embeddedVersions("codex").at(-1) ?? FIRST_PAGINATED_VERSION);
}

/** The defaults alone, for rendering without a store (`convert` to stdout in library use). */
export function defaultTarget(override?: string): CodexTarget {
  const version = defaultVersion(override);
  return {
    ...CODEX_DEFAULTS,
    version,
    paginated: compareVersions(version, FIRST_PAGINATED_VERSION) >= 0,
    evidence: "default",
  };
}

function newestThread(codexHome: string): Evidence | undefined {
  const database = newestStateDb(codexHome);
  if (!database) return undefined;
  const db = openReadOnly(database);
  try {
    const columns = new Set(tableColumns(db, "threads").map((c) => c.name));
    if (!columns.has("cli_version") || !columns.has("created_at")) return undefined;
    const mode = columns.has("history_mode") ? `, ${quoteIdent("history_mode")}` : "";
    const row = db.prepare(
      `SELECT cli_version${mode} FROM threads WHERE cli_version <> '' ORDER BY created_at DESC LIMIT 1`,
    ).get() as Row | undefined;
    if (!row || typeof row.cli_version !== "string") return undefined;
    return {
      version: row.cli_version,
      source: "threads",
      ...(typeof row.history_mode === "string" ? { historyMode: row.history_mode } : {}),
    };
  } finally {
    db.close();
  }
}

function storeGeneration(codexHome: string): Evidence | undefined {
  const database = newestStateDb(codexHome);
  if (!database) return undefined;
  const db = openReadOnly(database);
  try {
    if (!hasTable(db, "_sqlx_migrations")) return undefined;
    const last = Number((db.prepare("SELECT MAX(version) AS v FROM _sqlx_migrations").get() as Row).v ?? 0);
    const known = KNOWN_MIGRATIONS.findLast(([, migrations]) => migrations <= last);
    if (!known) return undefined;
    return {
      version: known[0],
      source: "store",
      historyMode: hasTable(db, PAGINATED_TABLE) ? "paginated" : "legacy",
    };
  } finally {
    db.close();
  }
}

async function newestRollout(codexHome: string): Promise<Evidence | undefined> {
  const newest = rolloutFiles(codexHome).filter((f) => !f.archived).at(-1);
  if (!newest) return undefined;
  for await (const { value } of readJsonl(newest.path)) {
    const payload = isObject(value) && value.type === "session_meta" && isObject(value.payload)
      ? value.payload
      : undefined;
    if (!payload || typeof payload.cli_version !== "string") return undefined;
    return {
      version: payload.cli_version,
      source: "rollout",
      ...(typeof payload.history_mode === "string" ? { historyMode: payload.history_mode } : {}),
    };
  }
  return undefined;
}
