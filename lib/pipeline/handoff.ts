/**
 * A whole handoff as one library call: read the source, prepare it for the target (a same-harness copy keeps
 * its records; any other target gets a rendering), plan read-only, refuse what the plan refuses, then back up,
 * commit, remember the conversion's provenance, record the operation in the undo ledger and apply the backup
 * retention rule. A dry run stops after the plan and says which command carries out exactly that plan. The CLI
 * (`session-bridge handoff`), certify and the public API (lib/mod.ts) all go through here; nothing here prints.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Session } from "../ir/schema.ts";
import type { HandoffResult, Harness, Homes } from "../harnesses/types.ts";
import { builtinRegistry, findHarness, type Registry } from "../harnesses/registry.ts";
import { defaultHome, homeOf } from "../harnesses/homes.ts";
import type { BrokenStore } from "../harnesses/stores.ts";
import { prepareConversion } from "./prepare.ts";
import { type ConversionReport, withNotes } from "../report/report.ts";
import { RefusedError } from "../errors.ts";
import { assertDirectory } from "../io/paths.ts";
import { holdingSignals } from "../io/interrupt.ts";
import { shellQuote } from "../io/shell.ts";
import { newUuid } from "../ids.ts";
import { recordOperation, sha256File } from "../store/ledger.ts";
import { discardingBackupsOnFailure } from "../store/operation.ts";
import { applyRetention, type PrunePlan } from "../store/prune.ts";
import { saveProvenance } from "../tools/provenance.ts";
import { type SessionSource, sourceSession } from "./source.ts";
import { type EnvironmentOptions, writerEnvironment } from "./environment.ts";

export interface HandoffRequest extends EnvironmentOptions {
  source: SessionSource;
  /** The target harness (a name or an alias). */
  to: string;
  /** Directory to resume from (default: the source session's). */
  cwd?: string;
  /** Title in the target (default: the source's, else its first user message). */
  title?: string;
  /** Model the target continues on (default: the target's configured model, else the source's mapped). */
  model?: string;
  /** Target id (default: a fresh one in the target's format). */
  sessionId?: string;
  /** Replace an existing target session (backed up first). */
  force?: boolean;
  /** Plan only: nothing is written. */
  dryRun?: boolean;
  /** Take an online backup of the databases written (default true; file targets never need one). */
  backup?: boolean;
  /** Append the resume handshake (default true). */
  handshake?: boolean;
  /** Answer interrupted tool calls with a result saying so (default true). */
  stubOpenCalls?: boolean;
  /** The time the handoff is made (default: now). */
  now?: Date;
  /** The harnesses known (default: the built-in ones). */
  registry?: Registry;
  /** Every registered harness's home, by harness name. */
  homes: Homes;
  /** session-bridge's own folder: backups, the undo ledger, tool provenance. */
  bridgeHome: string;
  /** Called for each store that could not be searched while resolving a reference (see LoadRequest). */
  onSkipped?: (store: BrokenStore) => void;
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
  /** For a dry run: the command that carries out exactly this plan (same id, absolute paths). */
  reproduce?: string;
  backup: HandoffBackup;
  /** What the retention rule removed after the handoff. */
  pruned?: PrunePlan;
  report: ConversionReport;
  /** Stores that could not be searched while resolving the reference. */
  skipped: BrokenStore[];
}

export async function handoff(request: HandoffRequest): Promise<HandoffOutcome> {
  const registry = request.registry ?? builtinRegistry;
  const target = findHarness(registry, request.to);
  if (request.sessionId !== undefined) target.checkId(request.sessionId);
  const now = request.now ?? new Date();
  const force = request.force ?? false;
  const dryRun = request.dryRun ?? false;
  const backupWanted = request.backup ?? true;
  const { session: source, skipped } = await sourceSession(request.source, { ...request, registry });
  const title = request.title ?? source.meta.title;
  const cwd = request.cwd;
  // A session placed for a directory that does not exist could never be resumed from it.
  assertDirectory(
    cwd ?? source.meta.cwd ?? "",
    cwd ? "--cwd" : "the source session's directory (pass --cwd DIR)",
  );
  const { session, options, report: prepared, memory } = await prepareConversion(source, target, {
    registry,
    ...(request.sessionId ? { id: request.sessionId } : {}),
    ...(cwd ? { cwd } : {}),
    ...(title ? { title } : {}),
    ...(request.model ? { model: request.model } : {}),
    handshake: request.handshake ?? true,
    stubOpenCalls: request.stubOpenCalls ?? true,
    now,
    home: homeOf(request.homes, target),
    ...writerEnvironment(target, request),
  });
  const plan = await target.plan(session, options, homeOf(request.homes, target), force);
  const report = withNotes(prepared, plan.notes);
  if (plan.refusal && !dryRun) throw new RefusedError(plan.refusal);
  // Signals are held from the first write until the ledger knows the handoff: interrupted before the commit,
  // everything is rolled back; after it, the handoff completes and is recorded for undo.
  const done = dryRun ? undefined : await holdingSignals(async () => {
    const result = await discardingBackupsOnFailure(() =>
      plan.commit({ force, backup: backupWanted, now, bridgeHome: request.bridgeHome })
    );
    saveProvenance(request.bridgeHome, target.name, plan.id, session, memory);
    return { result, op: await recordHandoff(request.bridgeHome, source, result, now) };
  });
  const pruned = done ? applyRetention(request.bridgeHome, now) : undefined;
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
    ...(dryRun ? { reproduce: reproduceCommand(request, registry, source, target, plan.id, plan.cwd) } : {}),
    backup: {
      planned: plan.databases.length > 0 && backupWanted,
      databases: plan.databases,
      paths: done?.result.backups ?? [],
      pruned: pruned?.remove.map((c) => c.path) ?? [],
    },
    ...(pruned ? { pruned } : {}),
    report,
    skipped,
  };
}

/** Appends the handoff to the undo ledger, with hashes that let undo notice later appends. */
async function recordHandoff(
  bridgeHome: string,
  session: Session,
  result: HandoffResult,
  now: Date,
): Promise<string> {
  const op = newUuid();
  recordOperation(bridgeHome, {
    op,
    at: now.toISOString(),
    source: { harness: session.meta.harness, id: session.meta.id },
    target: { harness: result.plan.harness, id: result.plan.id, path: result.plan.path },
    written: await Promise.all(
      result.written.map(async (path) => ({ path, sha256: await sha256File(path) })),
    ),
    rows: result.rows,
    replaced: result.replaced,
    backups: result.backups,
  });
  return op;
}

/** The handoff command that carries out a dry run's plan: the same options, absolute paths and the planned id. */
function reproduceCommand(
  request: HandoffRequest,
  registry: Registry,
  source: Session,
  target: Harness,
  id: string,
  cwd: string,
): string {
  const given = request.source;
  const ref = "ref" in given ? given.ref : source.meta.path ?? source.meta.id;
  const words = ["session-bridge", "handoff", existsSync(ref) ? resolve(ref) : ref, "--to", target.name];
  if ("ref" in given && given.from) words.push("--from", given.from);
  words.push("--cwd", cwd, "--session-id", id);
  if (request.title !== undefined) words.push("--title", request.title);
  if (request.model !== undefined) words.push("--model", request.model);
  if (request.force) words.push("--force");
  if (request.backup === false) words.push("--no-backup");
  if (request.handshake === false) words.push("--no-handshake");
  if (request.stubOpenCalls === false) words.push("--no-stub-open-calls");
  // Every home that is not the default, however it was given (flag or variable): the command must find the
  // same stores when pasted into a terminal that has none of those variables.
  for (const h of registry.harnesses) {
    const home = homeOf(request.homes, h);
    if (home !== defaultHome(h.home, request.env ?? {})) words.push(`--${h.home.flag}`, home);
  }
  return words.map(shellQuote).join(" ");
}
