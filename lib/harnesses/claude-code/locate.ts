/** Where Claude Code keeps its transcripts, and how we walk them without reading every file whole. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SessionSummary } from "../types.ts";
import { isUuid } from "../../ids.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { titleLine } from "../../ir/summary.ts";
import { blocksFromContent } from "./content.ts";
import { projectsDir } from "./home.ts";

/** Every top-level transcript `projects/<bucket>/<uuid>.jsonl`; subagent files live one level deeper. */
export function transcriptPaths(home: string): string[] {
  const root = projectsDir(home);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const bucket of readdirSync(root, { withFileTypes: true })) {
    if (!bucket.isDirectory()) continue;
    for (const file of readdirSync(join(root, bucket.name), { withFileTypes: true })) {
      if (file.isFile() && file.name.endsWith(".jsonl") && isUuid(file.name.slice(0, -6))) {
        out.push(join(root, bucket.name, file.name));
      }
    }
  }
  return out;
}

const HEAD_RECORDS = 200;

/**
 * A listing row from a file's head: cwd and the first user words are near the top, titles may be anywhere
 * but are small records, so we scan at most a bounded number of records and take mtime as "updated".
 */
export async function summarize(path: string): Promise<SessionSummary> {
  const id = path.slice(path.lastIndexOf("/") + 1, -6);
  const summary: SessionSummary = {
    harness: "claude-code",
    id,
    path,
    updatedAt: statSync(path).mtime.toISOString(),
  };
  let firstUser: string | undefined;
  let seen = 0;
  try {
    for await (const { value } of readJsonl(path)) {
      if (++seen > HEAD_RECORDS) break;
      const r = value as Record<string, unknown>;
      if (!summary.cwd && typeof r.cwd === "string") summary.cwd = r.cwd;
      if (r.type === "custom-title" && typeof r.customTitle === "string") summary.title = r.customTitle;
      if (r.type === "ai-title" && typeof r.aiTitle === "string") summary.title ??= r.aiTitle;
      if (!firstUser && r.type === "user" && r.isMeta !== true) firstUser = userText(r.message);
    }
  } catch {
    summary.title ??= "(unreadable)";
  }
  summary.title ??= firstUser;
  return summary;
}

function userText(message: unknown): string | undefined {
  const text = blocksFromContent((message as { content?: unknown } | undefined)?.content).find((b) =>
    b.type === "text"
  );
  return text?.type === "text" ? titleLine(text.text) : undefined;
}

/** Every session in the home, summarized from its transcript's first records. */
export function listClaude(home: string): Promise<SessionSummary[]> {
  return Promise.all(transcriptPaths(home).map(summarize));
}
