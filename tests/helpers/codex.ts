/**
 * Codex homes for tests, built from what the real binaries recorded: the `threads` CREATE TABLE, indexes and
 * migration list in fixtures/codex/<version>/threads.schema.json, the captured rollouts and their rows.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { type CodexStoreSchema, createCodexStore } from "../../lib/harnesses/codex/first-run.ts";

export const CODEX_VERSIONS = ["0.147.0", "0.169.0", "0.171.0"] as const;
export type CodexVersion = (typeof CODEX_VERSIONS)[number];
export const CODEX_SCENARIOS = [
  "text-turns",
  "tool-call",
  "apply-patch",
  "web-search",
  "interrupted",
  "killed",
  "stream-dropped",
  "compacted",
  "resumed",
] as const;

const FIXTURES = fileURLToPath(new URL("../../fixtures/codex/", import.meta.url));

export function codexFixture(version: CodexVersion, name: string): string {
  return join(FIXTURES, version, `${name}.jsonl`);
}

export function storeSchema(version: CodexVersion): CodexStoreSchema {
  return JSON.parse(readFileSync(join(FIXTURES, version, "threads.schema.json"), "utf8")) as CodexStoreSchema;
}

export interface StoreOptions {
  version?: CodexVersion;
  /** Rewrites the recorded CREATE TABLE (to drop or add columns). */
  createTable?: (sql: string) => string;
  provider?: string;
  model?: string;
}

/**
 * A Codex home: config.toml with a provider (and model), and state_5.sqlite holding `threads` exactly as the
 * real binary created it, plus its migration list (which tells the writer the store's Codex generation).
 */
export function makeCodexHome(home: string, options: StoreOptions = {}): string {
  const version = options.version ?? "0.169.0";
  const schema = storeSchema(version);
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "config.toml"),
    [
      `model = "${options.model ?? "gpt-5.5"}"`,
      `model_provider = "${options.provider ?? "fake"}"`,
      "",
      `[model_providers.${options.provider ?? "fake"}]`,
      `base_url = "http://127.0.0.1:9/v1"`,
      `wire_api = "responses"`,
      "",
    ].join("\n"),
  );
  return createCodexStore(
    home,
    options.createTable
      ? { ...schema, createTable: options.createTable(schema.createTable), indexes: [] }
      : schema,
  );
}

/** A captured rollout placed where Codex keeps it, with its captured `threads` row pointing at it. */
export function seedCodexThread(
  home: string,
  version: CodexVersion,
  name: string,
  where: "sessions" | "archived_sessions" = "sessions",
): { id: string; path: string } {
  const manifest = JSON.parse(readFileSync(join(FIXTURES, version, "manifest.json"), "utf8")) as {
    scenarios: { name: string; threadId: string; rollouts: string[] }[];
  };
  const scenario = manifest.scenarios.find((s) => s.name === name)!;
  const relative = scenario.rollouts[0]!;
  const path = where === "sessions" ? join(home, relative) : join(home, where, basename(relative));
  mkdirSync(join(path, ".."), { recursive: true });
  copyFileSync(codexFixture(version, name), path);
  const rows = JSON.parse(readFileSync(join(FIXTURES, version, `${name}.threads.json`), "utf8")) as Record<
    string,
    unknown
  >[];
  const db = new DatabaseSync(join(home, "state_5.sqlite"));
  for (const row of rows) {
    const values: Record<string, unknown> = {
      ...row,
      rollout_path: path,
      archived: where === "sessions" ? 0 : 1,
    };
    const names = Object.keys(values);
    db.prepare(`INSERT INTO threads (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`)
      .run(...names.map((n) => values[n] as string | number | null));
  }
  db.close();
  return { id: scenario.threadId, path };
}

export function threadRow(home: string, id: string): Record<string, unknown> | undefined {
  const db = new DatabaseSync(join(home, "state_5.sqlite"), { readOnly: true });
  try {
    return db.prepare("SELECT * FROM threads WHERE id = ?").get(id) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}
