/** Real captured fixtures, and private harness homes seeded with them. */
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { bucketName } from "../../lib/harnesses/claude-code/bucket.ts";

export const CLAUDE_VERSION = "2.1.328";
export const CLAUDE_FIXTURES = fileURLToPath(
  new URL(`../../fixtures/claude-code/${CLAUDE_VERSION}/`, import.meta.url),
);
/** The neutral cwd every captured fixture records. */
export const FIXTURE_CWD = "/home/user/project";

export function claudeFixture(name: string): string {
  return join(CLAUDE_FIXTURES, `${name}.jsonl`);
}

export function sessionIdOf(path: string): string {
  const first = readFileSync(path, "utf8").split("\n").find((l) => l.includes('"sessionId"'))!;
  return (JSON.parse(first) as { sessionId: string }).sessionId;
}

/** A Claude home whose project bucket for FIXTURE_CWD holds the named fixture (and its subagent folder). */
export function seedClaudeHome(home: string, name: string): { id: string; path: string } {
  const source = claudeFixture(name);
  const id = sessionIdOf(source);
  const bucket = join(home, "projects", bucketName(FIXTURE_CWD));
  mkdirSync(bucket, { recursive: true });
  const path = join(bucket, `${id}.jsonl`);
  cpSync(source, path);
  const side = join(CLAUDE_FIXTURES, name);
  if (existsSync(side)) cpSync(side, join(bucket, id), { recursive: true });
  return { id, path };
}

export function jsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8").split("\n").filter((l) => l.trim()).map((l) =>
    JSON.parse(l) as Record<string, unknown>
  );
}
