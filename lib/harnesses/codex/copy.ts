/**
 * Codex to Codex: the rollout is copied line by line. Only what must change is touched (the thread id wherever
 * it appears, the working directory, and in `session_meta` what describe.ts adjusts: the model provider the
 * target's Codex runs, an interactive source, missing required fields), so every other line stays
 * byte-identical. An export (`verbatim`) keeps even those. An earlier hop's handshake is dropped and the ordinals after it close up, so paginated history
 * stays strictly increasing without gaps; stubs and the new handshake are appended after the last ordinal.
 */
import type { SessionHead } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import type { JsonlLine } from "../../io/jsonl.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { INTERRUPTED_RESULT, startsWithHandshake } from "../../handshake/handshake.ts";
import { messageItem, messageText, outputItem } from "./items.ts";
import { isObject } from "../../io/json.ts";
import { LineWriter } from "./lines.ts";
import type { CodexTarget } from "./target.ts";
import { adjustedMeta } from "./describe.ts";

type Json = Record<string, unknown>;

const ROOT_LISTS = new Set(["runtime_workspace_roots", "workspace_roots"]);

/** `records` are the source rollout's, as the store reads them from `session.meta.path`. */
export async function* copyRollout(
  session: SessionHead,
  options: RenderOptions,
  target: CodexTarget,
  records: AsyncIterable<JsonlLine>,
): AsyncGenerator<string> {
  const retarget = retargeter(session.meta.id, options.id, session.meta.cwd, options.cwd);
  const clock = new RecordClock(options.now, session.meta.createdAt);
  let dropped = 0;
  const customCalls = new Set<string>();
  let lastOrdinal: number | undefined;
  let metaSeen = false;
  for await (const read of records) {
    const record = read.value as Json;
    if (typeof record.timestamp === "string") clock.next(record.timestamp);
    if (isObject(record.payload) && record.payload.type === "custom_tool_call") {
      customCalls.add(String(record.payload.call_id));
    }
    // An earlier hop's handshake gives way to the new one; an export keeps it, as it keeps every record.
    if (!options.verbatim && isHandshakeLine(record)) {
      dropped++;
      continue;
    }
    const text = read.text();
    let changed = retarget(record, text) as Json;
    if (record.type === "session_meta" && isObject(changed.payload) && !metaSeen) {
      metaSeen = true;
      const timestamp = typeof record.timestamp === "string" ? record.timestamp : undefined;
      const { payload, filled, retaggedSource, reprovided } = adjustedMeta(
        changed.payload,
        options,
        target,
        timestamp,
      );
      if (filled.length || retaggedSource !== undefined || reprovided !== undefined) {
        changed = { ...changed, payload };
      }
    }
    if (typeof record.ordinal === "number") {
      lastOrdinal = record.ordinal - dropped;
      if (dropped) changed = { ...changed, ordinal: lastOrdinal };
    }
    yield changed === record ? text : JSON.stringify(changed);
  }
  const out = new LineWriter(clock, lastOrdinal !== undefined, (lastOrdinal ?? -1) + 1);
  if (options.stubOpenCalls) {
    for (const { callId } of session.pending.openToolCalls) {
      const stub = {
        type: "tool_result" as const,
        callId,
        isError: true,
        content: [{ type: "text" as const, text: INTERRUPTED_RESULT }],
      };
      yield out.line("response_item", outputItem(stub, customCalls.has(callId)));
    }
  }
  if (options.handshake) {
    yield out.line(
      "response_item",
      messageItem("user", [{ type: "text", text: options.handshake }]),
      handshakeTime(options.now),
    );
  }
}

function isHandshakeLine(record: Json): boolean {
  const item = record.payload;
  if (record.type !== "response_item" || !isObject(item) || item.type !== "message" || item.role !== "user") {
    return false;
  }
  return startsWithHandshake(messageText(item.content));
}

/**
 * A function that returns its argument itself when nothing in it refers to the old thread or cwd, else a copy
 * with those references replaced: the thread id wherever it appears as a value, the cwd under `cwd` keys and in
 * workspace-root lists (message text that mentions the old path is history and stays as written). A record is
 * walked only when its text as written could hold such a value (see mayRefer): most lines of a rollout are
 * message and tool output that name neither (walking them all took 4 % of a 70 MB copy's wall time).
 */
function retargeter(oldId: string, newId: string, oldCwd: string | undefined, newCwd: string) {
  const moveCwd = oldCwd !== undefined && oldCwd !== newCwd;
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === "string") {
      if (value === oldId) return newId;
      if (moveCwd && value === oldCwd && (key === "cwd" || ROOT_LISTS.has(key))) return newCwd;
      return value;
    }
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((v, i) => {
        const next = walk(v, key);
        if (next !== v) (copy ??= [...value])[i] = next;
      });
      return copy ?? value;
    }
    if (isObject(value)) {
      let copy: Json | undefined;
      for (const [k, v] of Object.entries(value)) {
        const next = walk(v, k);
        if (next !== v) (copy ??= { ...value })[k] = next;
      }
      return copy ?? value;
    }
    return value;
  };
  const sought = moveCwd ? [oldId, JSON.stringify(oldCwd).slice(1, -1)] : [oldId];
  return (record: Json, text: string) => (mayRefer(text, sought) ? walk(record, "") : record);
}

/**
 * Whether a record's text as written could hold a string equal to one of `values` (each in the form
 * JSON.stringify writes inside quotes). A string's text is that form unless it uses an escape the form does not:
 * `\uXXXX` (any character) or `\/` (a slash). A line with either is always walked, so a record that spells the
 * id or the path in escapes (hostile or not) is retargeted all the same.
 */
function mayRefer(text: string, values: readonly string[]): boolean {
  return values.some((value) => text.includes(value)) || text.includes("\\u") || text.includes("\\/");
}
