/**
 * Handoff into Claude Code: the transcript (and any subagent transcripts) published into the bucket of the
 * target cwd, so `claude --resume <id>` run there finds it. Claude keeps no index, so files are the whole job.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import type { HandoffPlan, PlannedFile, RenderOptions } from "../types.ts";
import { handoffPlan } from "../plan.ts";
import { publishPlannedFiles } from "../publish.ts";
import { entryPresent } from "../../io/links.ts";
import { refuse } from "../refuse.ts";
import { assertUuid } from "../../ids.ts";
import { resumeClaude } from "./resume.ts";
import { bucketFor, MAX_BUCKET_BYTES } from "./bucket.ts";
import { detectClaudeTarget } from "./target.ts";
import { projectsDir } from "./home.ts";
import { copyTranscript, renderClaude } from "./render.ts";

export async function planClaude(
  session: SessionStream,
  options: RenderOptions,
  home: string,
  force: boolean,
): Promise<HandoffPlan> {
  assertUuid(options.id);
  const target = await detectClaudeTarget(home, options.targetVersion);
  const bucket = bucketFor(options.cwd, options.env ?? {}, target.version);
  const dir = join(projectsDir(home), bucket);
  const path = join(dir, `${options.id}.jsonl`);
  const files: PlannedFile[] = [{ path, lines: () => renderClaude(session, options, target.version) }];
  for (const source of subagentFiles(session)) {
    files.push({
      path: join(dir, options.id, "subagents", basename(source)),
      lines: () => copyTranscript(source, options),
    });
  }
  // A link there (even a dangling one) takes the name too: only --force replaces it.
  const taken = files.filter((f) => entryPresent(f.path)).map((f) => f.path);
  const refusal = Buffer.byteLength(bucket) > MAX_BUCKET_BYTES
    ? `Claude Code ${target.version} cannot keep sessions for ${options.cwd}: its project folder name would be ` +
      `${Buffer.byteLength(bucket)} bytes, more than a file name may have (${MAX_BUCKET_BYTES})`
    : taken.length && !force
    ? refuse.exists(options.id, taken[0]!).message
    : undefined;
  const preview = {
    harness: "claude-code" as const,
    id: options.id,
    path,
    cwd: options.cwd,
    files: files.map((f) => f.path),
    databases: [],
    resumeCommand: resumeClaude({ id: options.id, cwd: options.cwd, home, env: options.env ?? {} }),
    ...(refusal ? { refusal } : {}),
  };
  return handoffPlan(
    preview,
    (commit) => publishPlannedFiles(options.id, files, commit),
  );
}

/** Subagent transcripts of a Claude Code source travel with it; other sources have none on disk. */
function subagentFiles(session: SessionHead): string[] {
  if (session.meta.harness !== "claude-code" || !session.meta.path) return [];
  const dir = join(session.meta.path.slice(0, -".jsonl".length), "subagents");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((f) => join(dir, f));
}
