/** The toy harness's store: one `<home>/sessions/<id>.jsonl` per session; a handoff publishes one file. */
import { holdSession, type SessionStream } from "../../../lib/ir/stream.ts";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Session } from "../../../lib/ir/schema.ts";
import type {
  HandoffPlan,
  HomeSpec,
  RenderOptions,
  ResumeRequest,
  SessionSummary,
} from "../../../lib/harnesses/types.ts";
import { handoffPlan } from "../../../lib/harnesses/plan.ts";
import { publishPlannedFiles } from "../../../lib/harnesses/publish.ts";
import { refuse } from "../../../lib/harnesses/refuse.ts";
import { resumeLine } from "../../../lib/harnesses/resume.ts";
import { readJsonl } from "../../../lib/io/jsonl.ts";
import { assertUuid } from "../../../lib/ids.ts";
import { fromSession, toSession, TOY } from "./codec.ts";

export const TOY_HOME: HomeSpec = { flag: "toy-home", env: "TOY_HOME", folder: ".toy", describe: "Toy home" };

/** The toy continues a session with `toy resume <id>`. */
export const resumeToy = (request: ResumeRequest): string =>
  resumeLine(TOY_HOME, request, ["toy", "resume", request.id]);

export const sessionsDir = (home: string): string => join(home, "sessions");

export async function readToy(path: string): Promise<Session> {
  const records: unknown[] = [];
  for await (const { value } of readJsonl(path)) records.push(value);
  return toSession(records, path);
}

export async function* renderToy(session: SessionStream, options: RenderOptions): AsyncGenerator<string> {
  // The toy holds the thread to render it: its sessions are small.
  for (const record of fromSession(await holdSession(session), options)) yield JSON.stringify(record);
}

export async function listToy(home: string): Promise<SessionSummary[]> {
  const dir = sessionsDir(home);
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => join(dir, f));
  return await Promise.all(files.map(async (path) => {
    const session = await readToy(path);
    return {
      harness: TOY,
      id: session.meta.id,
      path,
      updatedAt: statSync(path).mtime.toISOString(),
      messages: session.messages.length,
      ...(session.meta.cwd ? { cwd: session.meta.cwd } : {}),
      ...(session.meta.title ? { title: session.meta.title } : {}),
    };
  }));
}

export function planToy(
  session: SessionStream,
  options: RenderOptions,
  home: string,
  force: boolean,
): HandoffPlan {
  assertUuid(options.id);
  const path = join(sessionsDir(home), `${options.id}.jsonl`);
  const refusal = existsSync(path) && !force ? refuse.exists(options.id, path).message : undefined;
  const preview = {
    harness: TOY,
    id: options.id,
    path,
    cwd: options.cwd,
    files: [path],
    databases: [],
    resumeCommand: resumeToy({ id: options.id, cwd: options.cwd, home, env: options.env ?? {} }),
    ...(refusal ? { refusal } : {}),
  };
  const files = [{ path, lines: () => renderToy(session, options) }];
  return handoffPlan(
    preview,
    (commit) => publishPlannedFiles(options.id, files, commit),
  );
}
