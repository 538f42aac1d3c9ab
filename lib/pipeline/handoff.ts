/**
 * A whole handoff as one library call: read the source, prepare it for the target (a same-harness copy keeps
 * its records; any other target gets a rendering), plan read-only, refuse what the plan refuses, then back up,
 * commit, remember the conversion's provenance, record the operation in the undo ledger and apply the backup
 * retention rule; an intent written to the ledger first lets recovery finish or roll back a handoff a crash cut
 * short. A dry run stops after the plan and says which command carries out exactly that plan. The CLI
 * (`session-bridge handoff`), certify and the public API (lib/mod.ts) all go through here; nothing here prints.
 */
import type { PermissionsChoice } from "../posture/posture.ts";
import type { FitMode } from "../fit/fit.ts";
import { plannedOnly } from "../fit/summarizer.ts";
import type { SessionHead } from "../ir/stream.ts";
import { existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { HandoffPlan, HandoffResult, Harness } from "../harnesses/types.ts";
import { builtinRegistry, type Registry } from "../harnesses/registry.ts";
import { defaultHome, homeOf } from "../harnesses/homes.ts";
import type { BrokenStore } from "../harnesses/stores.ts";
import { chosenSettings, type ConversionChoices, prepareConversion } from "./prepare.ts";
import { type ConversionReport, withNotes } from "../report/report.ts";
import { fileFailure, fileSystemReason, InputError, RefusedError } from "../errors.ts";
import { LinkRefusedError } from "../io/links.ts";
import { crashPoint } from "../io/crash-points.ts";
import { lockStampNow } from "../io/lock-folder.ts";
import { handoffBackupDir } from "../store/backup.ts";
import {
  fileStamp,
  type Intent,
  missingFolders,
  releaseRoom,
  removeIntent,
  rowsFingerprint,
  thisProcess,
  writeIntent,
} from "../store/intent.ts";
import { recoverIfInterrupted } from "./recover.ts";
import { assertDirectory, isDirectory } from "../io/paths.ts";
import { looksLikePath } from "../harnesses/resolve.ts";
import { holdingSignals } from "../io/interrupt.ts";
import { newUuid } from "../ids.ts";
import { ledgerPath, recordOperation, sha256File } from "../store/ledger.ts";
import { hashReplaced } from "../store/replaced.ts";
import { applyRetention, type PrunePlan } from "../store/prune.ts";
import { provenanceBytes, provenancePath, saveProvenance } from "../tools/provenance.ts";
import { handoffRecordRoom } from "../store/room.ts";
import { type SessionSource, sourceSession } from "./source.ts";
import { type EnvironmentOptions, writerEnvironment } from "./environment.ts";
import { harnessOf, type HarnessRef, type StoresRequest } from "./request.ts";
import { followAliases, type FollowOutcome } from "../aliases/follow.ts";
import { isAlias } from "../registry/registry.ts";
import { phaseClock } from "../io/phase-clock.ts";

export interface HandoffRequest extends EnvironmentOptions, StoresRequest, ConversionChoices {
  source: SessionSource;
  /** The target harness (its descriptor, or a name or an alias). */
  to: HarnessRef;
  /** Directory to resume from (default: the source session's). */
  cwd?: string;
  /** Title in the target (default: the source's, else its first user message). */
  title?: string;
  /** Target id (default: a fresh one in the target's format). */
  sessionId?: string;
  /** Replace an existing target session (backed up first). */
  force?: boolean;
  /** Plan only: nothing is written. */
  dryRun?: boolean;
  /** Take an online backup of the databases written (default true; file targets never need one). */
  backup?: boolean;
  /** The time the handoff is made (default: now). */
  now?: Date;
  /**
   * Bind this name (in the resume folder's scope of `named`'s registry) for the target's kind to the new id.
   * Without it, every name bound there to the source follows it. The source's binding stays.
   */
  alias?: string;
}

export interface HandoffTarget {
  harness: string;
  id: string;
  /** The file the target resumes from, or `<database>#<id>`. */
  path: string;
  cwd: string;
  /** The command that continues the session in the target, from any directory. */
  resumeCommand: string;
}

/** A dry run's plan as a request to carry it out: every choice the plan made, pinned. */
export interface HandoffReplay {
  /** The session: as given, a path made absolute, or its full id when the reference may name another later. */
  session: string;
  /** The harness to look for it in (as given, or the pinned session's). */
  from?: string;
  to: string;
  cwd: string;
  /** The id the plan minted (or was given). */
  sessionId: string;
  title?: string;
  model?: string;
  force: boolean;
  backup: boolean;
  handshake: boolean;
  stubOpenCalls: boolean;
  permissions: PermissionsChoice;
  /** --fit and --context as given (absent: the default, auto, and the window found for the model). */
  fit?: FitMode;
  context?: number;
  /** --summarize-with's harness. */
  summarizeWith?: string;
  /** The homes that are not their harness's default, in the registry's order. */
  homes: { harness: string; home: string }[];
}

export interface HandoffBackup {
  /** A database backup will be (or was) taken. */
  planned: boolean;
  databases: string[];
  /** Backups taken (files replaced, databases). */
  paths: string[];
  /** Older backups the retention rule removed afterwards. */
  pruned: string[];
}

export interface HandoffOutcome {
  dryRun: boolean;
  /** A same-harness copy keeps the source's own records; a render writes them in the target's format. */
  kind: "copy" | "render";
  /** The undo ledger's id for this handoff (none for a dry run). */
  op?: string;
  source: { harness: string; id: string };
  target: HandoffTarget;
  /** Files the handoff writes (or would write). */
  files: string[];
  /** Databases the handoff registers the session in (or would). */
  databases: string[];
  /** Why the plan cannot be carried out; only a dry run returns one (otherwise it is thrown). */
  refusal?: string;
  /** For a dry run: the request that carries out exactly this plan (same id, absolute paths). */
  reproduce?: HandoffReplay;
  backup: HandoffBackup;
  /** What the retention rule removed after the handoff. */
  pruned?: PrunePlan;
  report: ConversionReport;
  /** Stores that could not be searched while resolving the reference. */
  skipped: BrokenStore[];
  /** Names bound to the new id (`named` given, not a dry run), and why a bind could not be made. */
  aliases?: FollowOutcome;
  /** What could not be recorded after the handoff was made (it stands, and resumes; see `op`). */
  warnings: string[];
}

export async function handoff(request: HandoffRequest): Promise<HandoffOutcome> {
  const registry = request.registry ?? builtinRegistry;
  const target = harnessOf(registry, request.to);
  if (request.sessionId !== undefined) target.store.checkId(request.sessionId);
  if (request.alias !== undefined && !isAlias(request.alias)) {
    throw new InputError(
      `--alias ${
        JSON.stringify(request.alias)
      }: a name starts with a letter, then letters, digits, '_', '.' or '-' (max 64)`,
    );
  }
  const now = request.now ?? new Date();
  const force = request.force ?? false;
  const dryRun = request.dryRun ?? false;
  const backupWanted = request.backup ?? true;
  // A handoff an earlier crash interrupted is finished or rolled back first: planning must see the store as is.
  if (!dryRun && !request.recovered) await recoverIfInterrupted(request.bridgeHome, request.feedback);
  // A Ctrl-C while the source is read or the plan made stops the handoff at the reader's next checkpoint with
  // nothing written; during the write it is rolled back (below).
  return await holdingSignals(() => handOff(request, registry, target, { now, force, dryRun, backupWanted }));
}

async function handOff(
  request: HandoffRequest,
  registry: Registry,
  target: Harness,
  { now, force, dryRun, backupWanted }: { now: Date; force: boolean; dryRun: boolean; backupWanted: boolean },
): Promise<HandoffOutcome> {
  // Bad input the request alone shows is refused before the source is opened (a streamed one would hold spills).
  const environment = writerEnvironment(target, request);
  const phases = phaseClock(request.env, request.feedback);
  const { session: source, harness: from, skipped } = await sourceSession(request.source, {
    ...request,
    registry,
  });
  phases.mark("read");
  const title = request.title ?? source.meta.title;
  const cwd = request.cwd;
  try {
    assertResumable(source, cwd);
  } catch (error) {
    // Refused before the conversion takes the session over: what a streamed one keeps outside memory (its
    // spill files) is let go here, not when the process ends (a library caller's may not end soon).
    source.release?.();
    throw error;
  }
  const { session, options, report: prepared, memory, release } = await prepareConversion(source, target, {
    registry,
    from,
    ...(request.sessionId ? { id: request.sessionId } : {}),
    ...(cwd ? { cwd } : {}),
    ...(title ? { title } : {}),
    ...chosenSettings(request),
    // A plan only says who would write the summary: its model is asked when the handoff is made.
    ...(request.summarizer
      ? { summarizer: dryRun ? plannedOnly(request.summarizer) : request.summarizer }
      : {}),
    now,
    home: homeOf(request.homes, target),
    ...environment,
  });
  phases.mark("fitted");
  // A streamed session fitted to the window has its older messages in a spill file until they are written.
  try {
    const plan = await target.store.plan(session, options, homeOf(request.homes, target), force);
    phases.mark("planned");
    const report = withNotes(prepared, plan.notes);
    if (plan.refusal && !dryRun) throw new RefusedError(plan.refusal);
    // Signals are held from the first write until the ledger knows the handoff: interrupted before the commit,
    // everything is rolled back; after it, the handoff completes and is recorded for undo.
    // The ledger learns of the handoff before the target is touched (an intent) and after it (the entry): a kill
    // anywhere between leaves an intent that recovery completes or rolls back (lib/pipeline/recover.ts).
    const done = dryRun ? undefined : await holdingSignals(async () => {
      const op = newUuid();
      const { bridgeHome } = request;
      const intent = intentFor(op, source, plan, now, bridgeHome);
      writeIntentOrRefuse(bridgeHome, intent, handoffRecordRoom(intent, provenanceBytes(memory)));
      crashPoint("intent-written");
      let result: HandoffResult;
      try {
        result = await plan.commit({
          force,
          backup: backupWanted,
          backupFolder: intent.backupFolder,
          ...(intent.locks?.length ? { lockStamp: intent.locks[0]!.stamp } : {}),
          ...(request.feedback ? { feedback: request.feedback } : {}),
        });
      } catch (error) {
        // The commit took back its own partial work; its backups copy a store that never changed.
        rmSync(intent.backupFolder, { recursive: true, force: true });
        removeIntent(bridgeHome, intent);
        throw error;
      }
      crashPoint("committed");
      phases.mark("written and committed");
      // The handoff is made: what follows cannot take it back, so a failure from here on is a warning (the room
      // reserved with the intent makes one unlikely: only another writer filling the disk meanwhile).
      releaseRoom(bridgeHome, intent);
      const warnings: string[] = [];
      try {
        saveProvenance(bridgeHome, target.name, plan.id, memory);
      } catch (error) {
        const path = provenancePath(bridgeHome, plan.harness, plan.id);
        warnings.push(
          `what converting ${plan.harness}:${plan.id} back needs (native tool calls, reasoning proofs) could not ` +
            `be saved (${fileFailure(error, path)})`,
        );
      }
      try {
        await recordHandoff(bridgeHome, op, source, result, now);
      } catch (error) {
        // The intent stays: the next command records the handoff from it, as after a crash.
        warnings.push(
          `the handoff could not be recorded in the undo ledger yet (${
            fileFailure(error, ledgerPath(bridgeHome))
          }); ` +
            `the next session-bridge command records it, then undo ${op} takes it back`,
        );
        return { result, op, warnings };
      }
      crashPoint("ledger-written");
      removeIntent(bridgeHome, intent);
      return { result, op, warnings };
    });
    if (done) phases.mark("recorded");
    phases.tell();
    const pruned = done ? applyRetention(request.bridgeHome, now) : undefined;
    const aliases = done && request.named
      ? await followAliases({
        named: request.named,
        source: { harness: from, id: source.meta.id },
        target: { harness: target, id: plan.id, cwd: plan.cwd },
        ...(request.alias !== undefined ? { alias: request.alias } : {}),
        op: done.op,
        bridgeHome: request.bridgeHome,
      })
      : undefined;
    const targetInfo: HandoffTarget = {
      harness: plan.harness,
      id: plan.id,
      path: plan.path,
      cwd: plan.cwd,
      resumeCommand: plan.resumeCommand,
    };
    return {
      dryRun,
      kind: source.meta.harness === target.name ? "copy" : "render",
      ...(done ? { op: done.op } : {}),
      source: { harness: source.meta.harness, id: source.meta.id },
      target: targetInfo,
      files: plan.files,
      databases: plan.databases,
      ...(plan.refusal ? { refusal: plan.refusal } : {}),
      // A fresh id is minted per run, so the plan names the exact command that carries it out with this id.
      ...(dryRun ? { reproduce: replayOf(request, registry, source, target, plan.id, plan.cwd) } : {}),
      backup: {
        planned: plan.databases.length > 0 && backupWanted,
        databases: plan.databases,
        paths: done?.result.backups ?? [],
        pruned: pruned?.remove.map((c) => c.path) ?? [],
      },
      ...(pruned ? { pruned } : {}),
      report,
      skipped,
      ...(aliases ? { aliases } : {}),
      warnings: done?.warnings ?? [],
    };
  } finally {
    release();
  }
}

/** A session placed for a directory that does not exist could never be resumed from it. */
function assertResumable(source: SessionHead, cwd: string | undefined): void {
  if (cwd) assertDirectory(cwd, "--cwd");
  else if (!isDirectory(source.meta.cwd ?? "")) {
    throw new InputError(
      source.meta.cwd
        ? `the session was recorded in ${source.meta.cwd}, which does not exist here: ` +
          "pass --cwd DIR to resume it in another directory"
        : "the session records no directory: pass --cwd DIR to say where to resume it",
    );
  }
}

/** What the handoff will write, said before it writes anything (see lib/store/intent.ts). */
function intentFor(
  op: string,
  session: SessionHead,
  plan: HandoffPlan,
  now: Date,
  bridgeHome: string,
): Intent {
  const stamp = lockStampNow();
  return {
    kind: "handoff",
    op,
    at: now.toISOString(),
    ...thisProcess(),
    source: { harness: session.meta.harness, id: session.meta.id },
    target: { harness: plan.harness, id: plan.id, path: plan.path },
    files: plan.files.map((path) => {
      const before = fileStamp(path);
      return before ? { path, before } : { path };
    }),
    folders: missingFolders(plan.files),
    databases: plan.databases,
    rows: (plan.rows ?? []).map((rows) => ({ ...rows, before: rowsFingerprint(rows) })),
    backupFolder: handoffBackupDir(plan.harness, plan.id, op, now, bridgeHome),
    sidecars: [provenancePath(bridgeHome, plan.harness, plan.id)],
    // Real time, not `now` (a handoff may be dated otherwise): a lock stamped in the past is stale at once.
    ...(plan.locks?.length ? { locks: plan.locks.map((path) => ({ path, stamp })) } : {}),
  };
}

/**
 * A handoff the ledger could not learn of could never be undone: it is refused before anything is written, and
 * so is one whose records after the commit (`room` bytes) would not fit.
 */
function writeIntentOrRefuse(bridgeHome: string, intent: Intent, room: number): void {
  try {
    writeIntent(bridgeHome, intent, room);
  } catch (error) {
    // A link in the way is named as it is: the one line says what to remove.
    if (error instanceof LinkRefusedError) throw error;
    throw new RefusedError(
      `cannot write the undo ledger in ${bridgeHome} (${fileSystemReason(error)}); nothing was handed off`,
    );
  }
}

/** Appends the handoff to the undo ledger, with hashes that let undo notice later appends. */
async function recordHandoff(
  bridgeHome: string,
  op: string,
  session: SessionHead,
  result: HandoffResult,
  now: Date,
): Promise<void> {
  recordOperation(bridgeHome, {
    op,
    at: now.toISOString(),
    source: { harness: session.meta.harness, id: session.meta.id },
    target: { harness: result.plan.harness, id: result.plan.id, path: result.plan.path },
    written: await Promise.all(
      result.written.map(async (path) => ({ path, sha256: await sha256File(path) })),
    ),
    rows: result.rows,
    replaced: await hashReplaced(result.replaced),
    backups: result.backups,
  });
}

/**
 * The request that carries out a dry run's plan exactly: the same options, absolute paths and the planned id.
 * Plan data, not a command line: the front end says it in its own words (the CLI as `handoff` flags).
 */
function replayOf(
  request: HandoffRequest,
  registry: Registry,
  source: SessionHead,
  target: Harness,
  id: string,
  cwd: string,
): HandoffReplay {
  const given = request.source;
  const ref = "ref" in given ? given.ref : source.meta.path ?? source.meta.id;
  // A reference that may name another session later (`latest`, `codex~2`, a prefix, a title) is pinned to the
  // session planned: its full id, in its harness.
  const pinned = "ref" in given && !looksLikePath(ref, registry) && ref !== source.meta.id;
  const from = "ref" in given && given.from !== undefined
    ? harnessOf(registry, given.from).name
    : pinned
    ? source.meta.harness
    : undefined;
  // Every home that is not the default, however it was given (flag or variable): the replay must find the
  // same stores where none of those variables is set.
  const homes = registry.harnesses.filter((h) =>
    homeOf(request.homes, h) !== defaultHome(h.home, request.env ?? {})
  )
    .map((h) => ({ harness: h.name, home: homeOf(request.homes, h) }));
  return {
    session: pinned ? source.meta.id : existsSync(ref) ? resolve(ref) : ref,
    ...(from !== undefined ? { from } : {}),
    to: target.name,
    cwd,
    sessionId: id,
    ...(request.title !== undefined ? { title: request.title } : {}),
    ...(request.model !== undefined ? { model: request.model } : {}),
    force: request.force ?? false,
    backup: request.backup ?? true,
    handshake: request.handshake ?? true,
    stubOpenCalls: request.stubOpenCalls ?? true,
    permissions: request.permissions ?? "narrow",
    ...(request.fit !== undefined ? { fit: request.fit } : {}),
    ...(request.context !== undefined ? { context: request.context } : {}),
    ...(request.summarizer ? { summarizeWith: request.summarizer.name } : {}),
    homes,
  };
}
