/**
 * Handoff into Claude Code: the transcript (and any subagent transcripts) published into the bucket of the
 * target cwd, so `claude --resume <id>` run there finds it. Claude keeps no index, so files are the whole job.
 */
import { copyFileSync, existsSync, readdirSync, unlinkSync } from "node:fs";
import { basename, join } from "node:path";
import type { Session } from "../../ir/schema.ts";
import type { CommitOptions, HandoffPlan, PlannedFile, RenderOptions } from "../types.ts";
import { type Committed, handoffPlan } from "../plan.ts";
import { ensureDir, publishFile, removeEmptyDirs } from "../../io/publish.ts";
import { refuse } from "../refuse.ts";
import { assertUuid } from "../../ids.ts";
import { backupDir, backupFile } from "../../store/backup.ts";
import { commandLine } from "../../io/shell.ts";
import { homeEnvironment } from "../homes.ts";
import { CLAUDE_HOME } from "./home.ts";
import { bucketFor, MAX_BUCKET_BYTES } from "./bucket.ts";
import { detectClaudeTarget } from "./target.ts";
import { projectsDir } from "./locate.ts";
import { copyRecords, renderClaude } from "./write.ts";

export async function planClaude(
  session: Session,
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
      lines: () => copyRecords(source, options),
    });
  }
  const taken = files.filter((f) => existsSync(f.path)).map((f) => f.path);
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
    resumeCommand: commandLine(options.cwd, homeEnvironment(CLAUDE_HOME, home, options.env ?? {}), [
      "claude",
      "--resume",
      options.id,
    ]),
    ...(refusal ? { refusal } : {}),
  };
  return handoffPlan(preview, (commit) => publishTranscripts(options.id, files, commit));
}

/** Subagent transcripts of a Claude Code source travel with it; other sources have none on disk. */
function subagentFiles(session: Session): string[] {
  if (session.meta.harness !== "claude-code" || !session.meta.path) return [];
  const dir = join(session.meta.path.slice(0, -".jsonl".length), "subagents");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((f) => join(dir, f));
}

/** Publishes the planned transcripts; a file in the way is replaced only under --force, and saved first. */
async function publishTranscripts(
  id: string,
  files: PlannedFile[],
  { force, now, bridgeHome }: CommitOptions,
): Promise<Committed> {
  const created: string[] = [];
  const written: string[] = [];
  const replaced: [path: string, backup: string][] = [];
  const saved = backupDir(`claude-code-${id}`, now, bridgeHome);
  try {
    for (const file of files) {
      const existed = existsSync(file.path);
      if (existed && !force) {
        throw refuse.exists(id, file.path);
      }
      if (existed) replaced.push([file.path, backupFile(file.path, saved)!]);
      ensureDir(join(file.path, ".."), created);
      await publishFile(file.path, file.lines(), force);
      if (!existed) written.push(file.path);
    }
  } catch (error) {
    for (const path of written) unlinkSync(path);
    for (const [path, backup] of replaced) copyFileSync(backup, path);
    removeEmptyDirs(created);
    throw error;
  }
  return {
    written,
    rows: [],
    backups: replaced.map(([, backup]) => backup),
    replaced: replaced.map(([path, backup]) => ({ path, backup })),
  };
}
