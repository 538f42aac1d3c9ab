/**
 * Handoff into Gemini CLI: the session file published as
 * `<store>/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl` (the session's start, UTC, to
 * the minute, as the binary names its files), and the project registered as Gemini registers it on its first
 * run in a directory: the `{cwd: slug}` entry in `projects.json` and the `.project_root` markers of
 * `tmp/<slug>/` and `history/<slug>/` (projects.ts). Then `gemini --resume <id>` run in the directory finds it
 * and `gemini --list-sessions` lists it.
 *
 * Planning only reads. `projects.json` is the user's file, shared by every project: it is edited, not
 * replaced, its new content made from what is there at commit time, under Gemini's own lock on it, and saved
 * first so that undo (and a crash's rollback) puts it back. Every other file is new, and only --force replaces
 * one (the session's own file).
 */
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import type { SessionStream } from "../../ir/stream.ts";
import type { HandoffPlan, PlannedFile, PlanPreview, RenderOptions } from "../types.ts";
import { handoffPlan, refusedPlan } from "../plan.ts";
import { publishPlannedFiles } from "../publish.ts";
import { refuse } from "../refuse.ts";
import { RefusedError } from "../../errors.ts";
import { assertUuid } from "../../ids.ts";
import { entryPresent } from "../../io/links.ts";
import { lockStampNow } from "../../io/lock-folder.ts";
import { geminiStore } from "./home.ts";
import { resumeGemini } from "./resume.ts";
import { retentionNotes } from "./retention.ts";
import { planModeNotes } from "./plan-mode.ts";
import { geminiApprovalMode } from "./posture.ts";
import { renderGemini } from "./render.ts";
import { sessionStart } from "./encode.ts";
import {
  lockRegistry,
  markerNames,
  type ProjectPlace,
  projectPlace,
  projectsFile,
  readProjects,
  registeredText,
  registryLock,
  registryMoved,
} from "./projects.ts";

/** The binary's file name for a session started at `start` (ISO): `session-2026-12-03T08-11-0f6a8bb3.jsonl`. */
export function sessionFileName(start: string, id: string): string {
  return `session-${start.slice(0, 16).replace(/:/g, "-")}-${id.slice(0, 8)}.jsonl`;
}

export function planGemini(
  session: SessionStream,
  options: RenderOptions,
  home: string,
  force: boolean,
): HandoffPlan {
  assertUuid(options.id);
  const store = geminiStore(home);
  const preview = (path: string, files: string[]): PlanPreview => ({
    harness: "gemini-cli",
    id: options.id,
    path,
    cwd: options.cwd,
    files,
    databases: [],
    resumeCommand: resumeGemini({
      id: options.id,
      cwd: options.cwd,
      home,
      env: options.env ?? {},
      ...(options.posture ? { posture: options.posture } : {}),
    }),
    notes: [
      ...retentionNotes(home),
      ...planModeNotes(home, options.posture && geminiApprovalMode(options.posture)),
    ],
  });
  let place: ProjectPlace;
  try {
    place = projectPlace(store, options.cwd, readProjects(store));
  } catch (error) {
    if (!(error instanceof RefusedError)) throw error;
    return refusedPlan(preview(projectsFile(store), []), error.message);
  }
  const chats = join(store, "tmp", place.slug, "chats");
  const same = sameShortId(chats, options.id);
  // The session's own file, wherever an earlier handoff of it went: replaced in place under --force.
  const path = same?.sessionId === options.id
    ? same.path
    : join(chats, sessionFileName(sessionStart(session, options.now), options.id));
  const files: PlannedFile[] = [
    ...place.markers.map((marker) => ({ path: marker, lines: () => once(place.root) })),
    { path, lines: () => renderGemini(session, options) },
  ];
  if (place.register) {
    files.push({
      path: projectsFile(store),
      edits: true,
      // Read again at commit time, under the lock: another project registered since planning stays.
      lines: () => once(registeredAgain(store, place)),
    });
  }
  // The commit holds Gemini's lock on projects.json: a kill leaves it, and recovery must know to remove it.
  const plan = {
    ...preview(path, files.map((f) => f.path)),
    ...(place.register ? { locks: [registryLock(store)] } : {}),
  };
  if (same && same.sessionId !== options.id) {
    // Gemini finds and deletes sessions by the first 8 characters of their id: two would be one.
    return refusedPlan(
      plan,
      `session ${same.sessionId} in ${same.path} starts with the same 8 characters as ${options.id} ` +
        "(pass another --session-id)",
    );
  }
  if (same && !force) return refusedPlan(plan, refuse.exists(options.id, same.path).message);
  // A marker naming the directory, written since it was looked for (a Gemini or a handoff at once), is no clash.
  const taken = files.find((f) =>
    !f.edits && f.path !== path && entryPresent(f.path) && stillNeeded(f, store, place)
  );
  if (taken) return refusedPlan(plan, refuse.exists(options.id, taken.path).message);
  return handoffPlan(plan, async (commit) => {
    const unlock = place.register
      ? await lockRegistry(store, commit.lockStamp ?? lockStampNow(), commit.feedback)
      : undefined;
    try {
      return await publishPlannedFiles(options.id, files.filter((f) => stillNeeded(f, store, place)), commit);
    } finally {
      unlock?.();
    }
  });
}

/**
 * Whether a planned file is still to be written at commit time (under the registry's lock): a Gemini CLI, or
 * another handoff into the same directory, may have registered the project since planning. What it wrote is
 * then its own, left as it is (and by undo); a marker naming another directory is still refused as taken.
 */
function stillNeeded(file: PlannedFile, store: string, place: ProjectPlace): boolean {
  if (file.edits) return readProjects(store)[place.root] !== place.slug;
  return !(place.markers.includes(file.path) && markerNames(file.path, place.root));
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** The registry as it is now with the planned entry added; refused if it now puts the directory elsewhere. */
function registeredAgain(store: string, planned: ProjectPlace): string {
  const projects = readProjects(store);
  if (projectPlace(store, planned.root, projects).slug !== planned.slug) throw registryMoved(store);
  return registeredText(projects, planned);
}

/**
 * A session file in `chats` whose name ends in the first 8 characters of `id` (`.jsonl`, or a legacy `.json`),
 * with the session id its first line names.
 */
function sameShortId(chats: string, id: string): { path: string; sessionId: string } | undefined {
  let names: string[];
  try {
    names = readdirSync(chats);
  } catch {
    return undefined;
  }
  const short = id.slice(0, 8);
  const name = names.find((n) =>
    n.startsWith("session-") && (n.endsWith(`-${short}.jsonl`) || n.endsWith(`-${short}.json`))
  );
  if (name === undefined) return undefined;
  const path = join(chats, name);
  return { path, sessionId: firstSessionId(path) ?? short };
}

/** The session id a session file's head names (its first line, or a legacy file's object). */
function firstSessionId(path: string): string | undefined {
  const head = Buffer.alloc(HEAD_BYTES);
  let read: number;
  try {
    const fd = openSync(path, "r");
    try {
      read = readSync(fd, head, 0, HEAD_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return /"sessionId"\s*:\s*"([^"\\]*)"/.exec(head.toString("utf8", 0, read))?.[1];
}

const HEAD_BYTES = 64 * 1024;
