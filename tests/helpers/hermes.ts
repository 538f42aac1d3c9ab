/** Real Hermes fixtures (state.db copies, snapshots, transcripts, exports) and private homes seeded with them. */
import { copyFileSync, createReadStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import assert from "node:assert/strict";
import { hermes } from "../../lib/harnesses/hermes/index.ts";
import { builtinRegistry } from "../../lib/harnesses/registry.ts";
import { prepareConversion } from "../../lib/pipeline/prepare.ts";
import type { Session } from "../../lib/ir/schema.ts";
import type { RenderOptions } from "../../lib/harnesses/types.ts";

export const HERMES_VERSIONS = ["0.14.0", "0.19.0"] as const;
export type HermesVersion = typeof HERMES_VERSIONS[number];

export function hermesFixture(version: HermesVersion, file: string): string {
  return fileURLToPath(new URL(`../../fixtures/hermes/${version}/${file}`, import.meta.url));
}

export interface CapturedSessions {
  scenarios: Record<string, { session_ids: string[] }>;
}

export function capturedIds(version: HermesVersion, scenario: string): string[] {
  const capture = JSON.parse(
    readFileSync(hermesFixture(version, "capture.json"), "utf8"),
  ) as CapturedSessions;
  return capture.scenarios[scenario]!.session_ids;
}

/**
 * A Hermes home holding a copy of a scenario's state.db and a config.yaml routing to `model`
 * (the model every fixture recorded, unless a test says otherwise).
 */
export function seedHermesHome(
  home: string,
  version: HermesVersion,
  scenario: string,
  model: string | null = "fake-model-1",
): string {
  mkdirSync(home, { recursive: true });
  const db = join(home, "state.db");
  copyFileSync(hermesFixture(version, `${scenario}.state.db`), db);
  if (model) writeFileSync(join(home, "config.yaml"), `model:\n  default: "${model}"\n  provider: custom\n`);
  return db;
}

export function sha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path).on("data", (c) => hash.update(c)).on("end", () => resolve(hash.digest("hex")))
      .on("error", reject);
  });
}

/** Rows of a table by a query, read with a private read-only connection. */
export function query(db: string, sql: string, ...params: (string | number)[]): Record<string, unknown>[] {
  const conn = new DatabaseSync(db, { readOnly: true });
  try {
    return conn.prepare(sql).all(...params).map((row) => ({ ...row }));
  } finally {
    conn.close();
  }
}

/** A held session prepared for Hermes as a conversion would (handshake, stubs, fitting), its thread held. */
export async function preparedForHermes(
  source: Session,
  id: string,
  now: Date,
): Promise<{ session: Session; options: RenderOptions }> {
  const p = await prepareConversion(source, hermes, {
    registry: builtinRegistry,
    id,
    cwd: "/home/user/project",
    handshake: true,
    now,
  });
  assert.ok(Array.isArray(p.session.messages), "a held source stays held");
  return { session: p.session as Session, options: p.options };
}
