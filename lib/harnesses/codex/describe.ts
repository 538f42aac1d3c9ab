/**
 * What a copied rollout says about itself, so the `threads` row written for it describes the file it points to.
 * Codex re-derives part of the row from the rollout whenever it runs the thread (`session_meta.source` among
 * them: an `exec` thread registered as `cli` leaves the picker after its first `codex exec resume`), and a row
 * that claims another history mode, version or sandbox than the file misleads every later reader.
 *
 * The copy changes `session_meta` in the few ways a handoff needs (adjustedMeta); the description is taken
 * from the source file with those same changes applied, so row and file cannot disagree.
 */
import type { RenderOptions } from "../types.ts";
import type { JsonlLine } from "../../io/jsonl.ts";
import { isObject, type Json } from "../../io/json.ts";
import type { CodexTarget } from "./target.ts";

/** The fields Codex cannot read a `session_meta` without (its SessionMeta has no defaults for them). */
export const REQUIRED_META_FIELDS = ["id", "timestamp", "cwd", "originator", "cli_version"] as const;

/** The thread sources the `codex resume` picker lists; a handed-off thread is meant to be continued there. */
const INTERACTIVE_SOURCES = new Set(["cli", "vscode"]);

/** The originator recorded for a required field session-bridge had to fill in. */
export const FILLED_ORIGINATOR = "session-bridge";

export interface MetaAdjustment {
  payload: Json;
  /** Required fields the source lacked, filled in by the copy. */
  filled: string[];
  /** The non-interactive source replaced by `cli`, if any. */
  retaggedSource?: string;
  /** The model provider replaced by the target's, if any. */
  reprovided?: string;
}

/**
 * The copied `session_meta` payload: the target's model provider (a thread recorded under another provider
 * refuses to resume), an interactive source (so the picker lists it, now and after `codex exec resume`), and
 * any missing required field filled in. `verbatim` (export) changes nothing.
 */
export function adjustedMeta(
  payload: Json,
  options: RenderOptions,
  target: CodexTarget,
  lineTimestamp: string | undefined,
): MetaAdjustment {
  if (options.verbatim) return { payload, filled: [] };
  const out: Json = { ...payload };
  const adjustment: MetaAdjustment = { payload: out, filled: [] };
  const fill: Record<(typeof REQUIRED_META_FIELDS)[number], string> = {
    id: options.id,
    timestamp: lineTimestamp ?? options.now.toISOString(),
    cwd: options.cwd,
    originator: FILLED_ORIGINATOR,
    cli_version: target.version,
  };
  for (const field of REQUIRED_META_FIELDS) {
    if (typeof out[field] !== "string" || out[field] === "") {
      out[field] = fill[field];
      adjustment.filled.push(field);
    }
  }
  if (out.model_provider !== undefined && out.model_provider !== target.modelProvider) {
    adjustment.reprovided = String(out.model_provider);
    out.model_provider = target.modelProvider;
  }
  if (typeof out.source === "string" && !INTERACTIVE_SOURCES.has(out.source)) {
    adjustment.retaggedSource = out.source;
    out.source = "cli";
  } else if (isObject(out.source)) {
    adjustment.retaggedSource = JSON.stringify(out.source);
    out.source = "cli";
  }
  return adjustment;
}

/** The row-relevant facts of a copied rollout. */
export interface RolloutDescription {
  adjustment: MetaAdjustment;
  /** When the thread was created (`session_meta.timestamp`): the TUI creates it before the first record. */
  createdAt?: string;
  historyMode: "paginated" | "legacy";
  cliVersion: string;
  source: string;
  threadSource?: string;
  originator: string;
  /** The last turn's approval policy, as the row stores it (a word, or the policy object as JSON). */
  approval?: string;
  /** The last turn's sandbox, as the row stores it (the permission profile or sandbox policy as JSON). */
  sandbox?: string;
  model?: string;
}

/** The source rollout's `session_meta` (as the copy will write it) and its last `turn_context`, from its records. */
export async function describeCopy(
  records: AsyncIterable<JsonlLine>,
  options: RenderOptions,
  target: CodexTarget,
): Promise<RolloutDescription | undefined> {
  let meta: { payload: Json; timestamp?: string; ordinal: boolean } | undefined;
  let context: Json | undefined;
  for await (const { value } of records) {
    if (!isObject(value) || !isObject(value.payload)) continue;
    if (value.type === "session_meta" && !meta) {
      meta = {
        payload: value.payload,
        ...(typeof value.timestamp === "string" ? { timestamp: value.timestamp } : {}),
        ordinal: typeof value.ordinal === "number",
      };
    } else if (value.type === "turn_context") context = value.payload;
  }
  if (!meta) return undefined;
  const adjustment = adjustedMeta(meta.payload, options, target, meta.timestamp);
  const written = adjustment.payload;
  // A rollout without `history_mode` is legacy unless its lines carry ordinals (the mark of paginated history).
  const mode = typeof written.history_mode === "string"
    ? written.history_mode
    : meta.ordinal
    ? "paginated"
    : "legacy";
  const asText = (v: unknown) => (typeof v === "string" ? v : isObject(v) ? JSON.stringify(v) : undefined);
  const sandbox = context ? asText(context.permission_profile) ?? asText(context.sandbox_policy) : undefined;
  const approval = context ? asText(context.approval_policy) : undefined;
  const model = context && typeof context.model === "string" ? context.model : undefined;
  return {
    adjustment,
    ...(typeof meta.payload.timestamp === "string" ? { createdAt: meta.payload.timestamp } : {}),
    historyMode: mode === "paginated" ? "paginated" : "legacy",
    cliVersion: String(written.cli_version),
    source: typeof written.source === "string" ? written.source : "cli",
    ...(typeof written.thread_source === "string" ? { threadSource: written.thread_source } : {}),
    originator: String(written.originator),
    ...(approval ? { approval } : {}),
    ...(sandbox ? { sandbox } : {}),
    ...(model ? { model } : {}),
  };
}
