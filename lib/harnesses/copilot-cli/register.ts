/**
 * Handoff into GitHub Copilot CLI: the session folder `<home>/session-state/<id>/` with its `events.jsonl`
 * (encode.ts) and `workspace.yaml` (workspace-file.ts), and the session's rows in the global index
 * `session-store.db` (session-index.ts) when the home has one. Then `copilot --resume=<id>` sends the model every
 * earlier part once, in order, and the session list shows it with its name and location (checked on 1.0.102:
 * docs/harnesses/copilot-cli.md, "Writing a session").
 *
 * Written directly, not through Copilot's own door, `copilot sessions import`: the import picks a random id of
 * its own (no --session-id, so nothing to refuse or undo by id), gives every tool call a new id, stamps every
 * event with the time of the import (the session then looks active now), keeps no reasoning and writes no
 * index rows (measured on the binary; the page above has the table).
 *
 * Planning only reads. Committing takes an online backup of the index, publishes the two files (only --force
 * replaces them, saved first), then inserts the rows in one immediate transaction; if that fails, the files
 * are taken back, so nothing is half-written.
 */
import { existsSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type { SessionStream } from "../../ir/stream.ts";
import type { CommitOptions, HandoffPlan, PlannedFile, PlanPreview, RenderOptions } from "../types.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import { type Committed, handoffPlan, refusedPlan } from "../plan.ts";
import { publishPlannedFiles } from "../publish.ts";
import { refuse, targetStoreRefusal } from "../refuse.ts";
import { copyIntoPlace } from "../../io/publish.ts";
import { entryPresent, isLink } from "../../io/links.ts";
import { immediateTransaction, onlineBackup, openForWrite, openReadOnly } from "../../store/sqlite.ts";
import { copilotSessionState } from "./home.ts";
import { checkCopilotSessionId } from "./ids.ts";
import { resumeCopilot } from "./resume.ts";
import { type IndexedTurn, newSummary, sessionStart } from "./encode.ts";
import { spillRecords } from "../../ir/spill.ts";
import { renderCopilot } from "./render.ts";
import { workspaceName, workspaceText } from "./workspace-file.ts";
import {
  checkIndex,
  indexedSession,
  indexRows,
  insertIndexed,
  removeIndexed,
  sessionIndexPath,
} from "./session-index.ts";

export function planCopilot(
  session: SessionStream,
  options: RenderOptions,
  home: string,
  force: boolean,
): HandoffPlan {
  const id = checkCopilotSessionId(options.id);
  const folder = join(copilotSessionState(home), id);
  const database = sessionIndexPath(home);
  const indexed = existsSync(database) || isLink(database);
  const notes: ReportEntry[] = [];
  const preview: PlanPreview = {
    harness: "copilot-cli",
    id,
    path: join(folder, "events.jsonl"),
    cwd: options.cwd,
    files: [join(folder, "events.jsonl"), join(folder, "workspace.yaml")],
    databases: indexed ? [database] : [],
    resumeCommand: resumeCopilot({
      id,
      cwd: options.cwd,
      home,
      env: options.env ?? {},
      ...(options.posture ? { posture: options.posture } : {}),
    }),
    notes,
    ...(indexed ? { rows: indexRows(database, id) } : {}),
  };
  if (!indexed) {
    notes.push(reportEntry(
      "copilot-no-session-store",
      "info",
      `${home} has no session-store.db yet: the session list and --resume read the session folder; ` +
        "Copilot indexes it for /chronicle and search once it makes its store (/chronicle reindex)",
    ));
  }
  let taken = false;
  if (indexed) {
    if (isLink(database)) return refusedPlan(preview, refuse.linked(database).message);
    try {
      taken = readIndex(database, (db) => indexedSession(db, id));
    } catch (error) {
      return refusedPlan(preview, targetStoreRefusal(database, error).message);
    }
  }
  const where = entryPresent(folder) ? folder : taken ? database : undefined;
  if (where && !force) return refusedPlan(preview, refuse.exists(id, where).message);
  if (where) {
    notes.push(reportEntry(
      "copilot-session-replaced",
      "warning",
      `--force: session ${id}'s events.jsonl, workspace.yaml and index rows are replaced (backed up first; ` +
        "session-bridge undo puts them back); other files of its folder stay",
      { examples: [id] },
    ));
  }
  const summary = newSummary(sessionStart(session, options.now));
  const fields = { id, cwd: options.cwd, summary, ...(options.title ? { title: options.title } : {}) };
  const files: PlannedFile[] = [
    { path: join(folder, "events.jsonl"), lines: () => renderCopilot(session, options, summary) },
    // After the events: made from what writing them gathered.
    { path: join(folder, "workspace.yaml"), lines: () => once(workspaceText(fields).replace(/\n$/, "")) },
  ];
  return handoffPlan(preview, async (commit) => {
    if (!indexed) return await publishPlannedFiles(id, files, commit);
    // The index's turns are gathered as the events are written.
    const turns = summary.turns = spillRecords<IndexedTurn>();
    try {
      return await publishAndIndex(id, files, database, commit, () => ({
        id,
        cwd: options.cwd,
        name: workspaceName(fields),
        summary,
      }));
    } finally {
      turns.close();
    }
  });
}

function readIndex<T>(database: string, read: (db: DatabaseSync) => T): T {
  const db = openReadOnly(database);
  try {
    checkIndex(db, database);
    return read(db);
  } finally {
    db.close();
  }
}

async function publishAndIndex(
  id: string,
  files: PlannedFile[],
  database: string,
  commit: CommitOptions,
  session: () => Parameters<typeof insertIndexed>[1],
): Promise<Committed> {
  const db = openForWrite(database);
  try {
    checkIndex(db, database);
    const replacing = commit.force && indexedSession(db, id);
    // Replaced rows live only in the database: its backup is taken even under --no-backup, undo restores them.
    const backup = commit.backup || replacing
      ? await onlineBackup(db, commit.backupFolder, "session-store.db", commit.feedback)
      : undefined;
    const folder = dirname(files[0]!.path);
    const madeFolder = !entryPresent(folder);
    const published = await publishPlannedFiles(id, files, commit);
    let counts: Record<string, number>;
    try {
      counts = await immediateTransaction(db, () => {
        // Checked again under the write lock: a running Copilot may have indexed the id since planning.
        const taken = indexedSession(db, id);
        if (taken && !commit.force) throw refuse.exists(id, database);
        if (taken) removeIndexed(db, id);
        return insertIndexed(db, session());
      }, commit.feedback);
    } catch (error) {
      for (const path of published.written) unlinkSync(path);
      for (const r of published.replaced) copyIntoPlace(r.backup, r.path);
      if (madeFolder && !readdirSync(folder).length) rmdirSync(folder);
      throw error;
    }
    return {
      ...published,
      rows: indexRows(database, id).map((r) => ({
        ...r,
        count: counts[r.table] ?? 0,
        ...(replacing && backup ? { restoreFrom: backup } : {}),
      })),
      backups: [...(backup ? [backup] : []), ...published.backups],
    };
  } finally {
    db.close();
  }
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}
