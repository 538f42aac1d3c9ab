/**
 * Which Claude Code a handoff writes for: the version the installed Claude last wrote (the newest transcript's
 * `version`), else the override the edge read from SESSION_BRIDGE_CLAUDE_VERSION, else the newest Claude Code whose schemas are embedded. So far
 * only the project bucket depends on it (long paths, see bucket.ts); records keep the shape we write.
 */
import { statSync } from "node:fs";
import { readJsonl } from "../../io/jsonl.ts";
import { transcriptPaths } from "./locate.ts";
import { CLAUDE_WRITER_VERSION } from "./version.ts";

export interface ClaudeTarget {
  version: string;
  evidence: "transcript" | "default";
}

/** A transcript states its version on every user and assistant record; the first few records suffice. */
const HEAD_RECORDS = 50;

export async function detectClaudeTarget(home: string, override?: string): Promise<ClaudeTarget> {
  const newest = transcriptPaths(home)
    .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)[0];
  const version = newest ? await transcriptVersion(newest.path) : undefined;
  if (version) return { version, evidence: "transcript" };
  return { version: override || CLAUDE_WRITER_VERSION, evidence: "default" };
}

async function transcriptVersion(path: string): Promise<string | undefined> {
  let seen = 0;
  try {
    for await (const { value } of readJsonl(path)) {
      const version = (value as { version?: unknown }).version;
      if (typeof version === "string" && /^\d+\.\d+\.\d+/.test(version)) return version;
      if (++seen >= HEAD_RECORDS) break;
    }
  } catch {
    // An unreadable transcript is no evidence.
  }
  return undefined;
}
