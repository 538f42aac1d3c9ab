/**
 * session-bridge as a library: list, load, convert, plan, hand off, undo and recover, with typed results. Nothing here
 * prints, exits or reads the process environment: homes, session-bridge's own folder and any environment to
 * honour are given by the caller. Failures are thrown as InputError (bad input, `exitCode` 2) or RefusedError
 * (refused or failed, `exitCode` 1); a signal during a write rolls it back and throws InterruptedError.
 */
import { resolveHomes } from "./harnesses/homes.ts";
import { builtinRegistry, type Registry, registryKinds } from "./harnesses/registry.ts";
import type { Homes } from "./harnesses/types.ts";
import { type Listed, type ListRequest, listSessions, listSessionsByStore } from "./pipeline/list.ts";
import { type Loaded, type LoadRequest, loadSession } from "./pipeline/load.ts";
import { convert as convertSession, type Converted, type ConvertRequest } from "./pipeline/convert.ts";
import {
  handoff as runHandoff,
  type HandoffOutcome,
  type HandoffReplay,
  type HandoffRequest,
} from "./pipeline/handoff.ts";
import {
  soleWritersOf,
  undo as runUndo,
  undoable as pendingHandoffs,
  type UndoOutcome,
  type UndoRequest,
} from "./pipeline/undo.ts";
import {
  recover as runRecover,
  type RecoveredOperation,
  type RecoverOutcome,
  type RecoverRequest,
} from "./pipeline/recover.ts";
import { resolveBridgeHome } from "./store/backup.ts";
import type { LedgerEntry } from "./store/ledger.ts";
import type { StoreListed } from "./harnesses/stores.ts";

export { builtinRegistry, findHarness, type Registry, withHarness } from "./harnesses/registry.ts";
export type { Harness, Homes, SessionSummary } from "./harnesses/types.ts";
export type { Session } from "./ir/schema.ts";
export type { PermissionsChoice } from "./posture/posture.ts";
/** `--fit` and `--context` as words, read as the CLI reads them (a front-end's own fields, the TUI's). */
export { parseContext, parseFit } from "./fit/option.ts";
export type { FitMode } from "./fit/fit.ts";
/** `--summarize-with`: a harness's model writing a fitted session's summary (engineSummarizer builds one). */
export type { Summarizer } from "./fit/summarizer.ts";
export type { ConversionReport } from "./report/report.ts";
export type { BrokenStore, StoreListed } from "./harnesses/stores.ts";
export type { SessionSource } from "./pipeline/source.ts";
export type {
  Converted,
  ConvertRequest,
  HandoffOutcome,
  HandoffReplay,
  HandoffRequest,
  Listed,
  Loaded,
  RecoveredOperation,
  RecoverOutcome,
  RecoverRequest,
  UndoOutcome,
  UndoRequest,
};
export type { LedgerEntry };
export { InputError, InterruptedError, RefusedError } from "./errors.ts";
/**
 * Named conversations: LazyBridge's alias registry (`~/.lazybridge/sessions.json`), same rules, same bytes.
 * The one part of the library that may follow the environment: give it `env` and it reads
 * LAZYBRIDGE_SESSIONS_FILE on every call, as LazyBridge does.
 */
export {
  AliasExistsError,
  AliasNotFoundError,
  type BindOptions,
  defaultSessionRegistry,
  type RegistryEntry,
  type RegistryKind,
  type RegistryValue,
  SessionRegistry,
  type SessionRegistryOptions,
  setDefaultSessionRegistry,
} from "./registry/registry.ts";
export { normalizeScope } from "./registry/scope.ts";
export { registryKinds } from "./harnesses/registry.ts";
/** The kinds the built-in harnesses' conversations are filed under, from their descriptors. */
export const REGISTRY_KINDS: readonly string[] = registryKinds(builtinRegistry);
/** Engines: one turn through a harness's own binary, with LazyBridge's alias rules. */
export * from "./engines/mod.ts";
/** What `inspect` shows of a loaded session (counts, pending state, drift), as plain data. */
export { type Inspection, inspection } from "./pipeline/inspect.ts";
export { type CurrentRequest, type CurrentSession, currentSession } from "./pipeline/current.ts";
export { installSkill, skillStatus, uninstallSkill } from "./pipeline/skill.ts";
export type {
  InstallLine,
  InstallRequest,
  SkillLocation,
  SkillRequest,
  SkillState,
} from "./pipeline/skill.ts";
/**
 * For a front-end of its own (the TUI is one): one line saying why a store could not be read, the order `list`
 * shows sessions in (to merge stores listed one by one), and the audit trail the CLI records handoffs and undos
 * in (`$SESSION_BRIDGE_HOME/events.db`).
 */
export { brokenStoreLine } from "./harnesses/stores.ts";
export { newerFirst } from "./pipeline/newest.ts";
export { auditHandoff, auditTrail, auditUndo, type AuditVia } from "./pipeline/audit.ts";
/** What `doctor` checks and what to do about each problem, as plain data (read-only). */
/** The read limits a request may carry (StoresRequest.limits), and the CLI's way of reading them from an environment. */
export { DEFAULT_READ_LIMITS, type ReadLimits, readLimitsFrom } from "./pipeline/request.ts";
/** What a request may be told while it works (StoresRequest.feedback): how far long steps are, and notices. */
export type { Feedback, ProgressListener, ProgressUpdate } from "./pipeline/request.ts";
export { doctor } from "./pipeline/doctor.ts";
export type { CheckStatus, DoctorCheck, DoctorReport, DoctorRequest } from "./pipeline/doctor.ts";

/** Where to find the stores: every registered harness's home, and session-bridge's own folder. */
export interface Stores {
  /** Default: the built-in harnesses. */
  registry?: Registry;
  homes: Homes;
  /** Backups, the undo ledger and tool provenance. */
  bridgeHome: string;
}

/**
 * The stores as the CLI would find them with `env` (each harness's home variable, SESSION_BRIDGE_HOME, HOME),
 * with `given` homes by harness name taking precedence. Without `env`, the defaults under the user's home folder.
 */
export function stores(
  options: { registry?: Registry; given?: Readonly<Record<string, string>>; env?: NodeJS.ProcessEnv } = {},
): Required<Stores> {
  const registry = options.registry ?? builtinRegistry;
  const env = options.env ?? {};
  return {
    registry,
    homes: resolveHomes(registry.harnesses, options.given ?? {}, env),
    bridgeHome: resolveBridgeHome(env),
  };
}

/** What a listing narrows to (a harness, a directory), and who hears that its cache could not be kept. */
export type ListScope = Pick<ListRequest, "from" | "cwd" | "feedback">;

/** Sessions across the stores, newest first, and the stores that could not be read. */
export function list(where: Stores & ListScope): Promise<Listed> {
  return listSessions({ ...where, registry: where.registry ?? builtinRegistry });
}

/**
 * The same sessions store by store, in the registry's order, each store read when the next is asked for: its
 * sessions newest first, or why it could not be read. For a screen that draws each store's sessions as they come.
 */
export function listByStore(where: Stores & ListScope): AsyncGenerator<StoreListed> {
  return listSessionsByStore({ ...where, registry: where.registry ?? builtinRegistry });
}

/** One session, by any reference form (a path, an id or unique prefix, a title, `latest`, `codex~2`), read into the IR. */
export function load(request: Omit<LoadRequest, "registry"> & { registry?: Registry }): Promise<Loaded> {
  return loadSession({ ...request, registry: request.registry ?? builtinRegistry });
}

/** A session rendered in another harness's format to a file (or a descriptor); no store is touched. */
export function convert(request: ConvertRequest): Promise<Converted> {
  return convertSession(request);
}

/** A handoff planned and nothing written: files, databases, refusal, report and the command that carries it out. */
export function plan(request: Omit<HandoffRequest, "dryRun">): Promise<HandoffOutcome> {
  return runHandoff({ ...request, dryRun: true });
}

/** A handoff carried out: it always has an undo operation. */
export type HandedOff = HandoffOutcome & { op: string };

/** A session made resumable in the target harness; the outcome names its resume command and undo operation. */
export async function handoff(request: Omit<HandoffRequest, "dryRun">): Promise<HandedOff> {
  const done = await runHandoff({ ...request, dryRun: false });
  if (done.op === undefined) throw new Error("a handoff carried out was not recorded in the undo ledger");
  return { ...done, op: done.op };
}

/** A handoff taken back (`op`, or the newest with `last: true`): what it wrote removed, what it replaced restored. */
export function undo(request: UndoRequest): Promise<UndoOutcome> {
  return runUndo(request);
}

/** What an undo asks before writing a harness's store (UndoRequest.soleWriter), of `registry`'s harnesses. */
export { soleWritersOf };

/** The handoffs that can still be undone, oldest first. */
export function undoable(bridgeHome: string): LedgerEntry[] {
  return pendingHandoffs(bridgeHome);
}

/**
 * Handoffs a crash interrupted, finished (the ledger records them, so undo sees them) or rolled back. handoff()
 * and undo() do this first by themselves.
 */
export function recover(request: RecoverRequest): Promise<RecoverOutcome> {
  return runRecover(request);
}
