/**
 * What a conversion changed that a hop back should undo exactly, remembered in a small JSON file per written
 * session in session-bridge's own home: translated tool calls' native forms (keyed by call id), reasoning
 * proofs the target could not hold (keyed by the text they travelled as), the permission words the target's
 * were translated from, and what the handshake said was pending (the target may move or hide the handshake
 * record itself, as Claude Code does with a resumed one). Target formats stay exactly what their harness writes; a session read back
 * later gets these attached again.
 */
import { closeSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EarlierHandoff, Message, NativeToolCall, ReasoningBlock } from "../ir/schema.ts";
import { mapMessages, type SessionStream } from "../ir/stream.ts";
import { publishTempPath } from "../io/publish.ts";
import { openOwnFile, refuseLinksBelow } from "../io/links.ts";
import { idFileComponent } from "../ids.ts";
import { DetachedProofs, proofReattacher } from "../ir/reasoning.ts";
import type { NativePosture } from "../posture/posture.ts";

export interface Provenance {
  calls: Record<string, NativeToolCall>;
  reasoning?: { text: string; block: ReasoningBlock }[];
  /** The source's permission words, and the target's words they were written as. */
  posture?: { native: NativePosture; written: string };
  /** What the handshake told the target was pending. */
  pending?: EarlierHandoff;
}

/** What a conversion remembers besides the calls its session carries. */
export interface ConversionMemory {
  /** The native forms of the calls the written session carries translated, by call id. */
  calls: Record<string, NativeToolCall>;
  reasoning: DetachedProofs;
  posture?: { native: NativePosture; written: string };
  pending?: EarlierHandoff;
}

/** Where a written session's provenance is kept (an intent names it: a kill may leave its temp file). */
export function provenancePath(bridgeHome: string, harness: string, id: string): string {
  return join(bridgeHome, "provenance", harness, `${idFileComponent(id)}.json`);
}

/** Everything saved but the proofs, serialized; undefined when there is nothing to save. */
function provenanceHead(memory: ConversionMemory): string | undefined {
  const { calls } = memory;
  if (!Object.keys(calls).length && !memory.reasoning.count && !memory.posture && !memory.pending) return;
  const provenance: Omit<Provenance, "reasoning"> = {
    calls,
    ...(memory.pending ? { pending: memory.pending } : {}),
    ...(memory.posture ? { posture: memory.posture } : {}),
  };
  return JSON.stringify(provenance);
}

/** The bytes saveProvenance writes for `memory` (0: no file), known before the handoff commits. */
export function provenanceBytes(memory: ConversionMemory): number {
  const head = provenanceHead(memory);
  if (head === undefined) return 0;
  return Buffer.byteLength(head) +
    (memory.reasoning.count ? `,"reasoning":`.length + memory.reasoning.jsonBytes : 0);
}

/** Saved in session-bridge's own folder (`bridgeHome`, see resolveBridgeHome). */
export function saveProvenance(
  bridgeHome: string,
  harness: string,
  id: string,
  memory: ConversionMemory = { calls: {}, reasoning: new DetachedProofs() },
): void {
  const json = provenanceHead(memory);
  if (json === undefined) return;
  const path = provenancePath(bridgeHome, harness, id);
  // Never through a link in session-bridge's folder (lib/io/links.ts), the file itself included.
  refuseLinksBelow(bridgeHome, path);
  // The temp file is named after this process, so recovery can tell a killed run's from another's.
  const temp = publishTempPath(path, process.pid);
  const fd = openOwnFile(bridgeHome, temp, "replace");
  try {
    if (!memory.reasoning.count) writeFileSync(fd, json);
    else {
      // The proofs come serialized already, a piece at a time: put in as the object's last key.
      writeFileSync(fd, `${json.slice(0, -1)},"reasoning":`);
      for (const piece of memory.reasoning.json()) writeFileSync(fd, piece);
      writeFileSync(fd, "}");
    }
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** Adds the native forms of the translated calls message `m` carries to `calls`, by call id. */
export function noteNativeCalls(m: Message, calls: Record<string, NativeToolCall>): void {
  for (const b of m.blocks) if (b.type === "tool_call" && b.native) calls[b.id] = b.native;
}

/** The session with what earlier conversions remembered about it attached again (its thread as it is read). */
export function restoreProvenance<S extends SessionStream>(bridgeHome: string, session: S): S {
  const path = provenancePath(bridgeHome, session.meta.harness, session.meta.id);
  if (!existsSync(path)) return session;
  let provenance: Provenance;
  try {
    provenance = JSON.parse(readFileSync(path, "utf8")) as Provenance;
  } catch {
    session.notices.push(`${path}: unreadable provenance file ignored`);
    return session;
  }
  const calls = provenance.calls ?? {};
  const reattach = proofReattacher(provenance.reasoning ?? []);
  const restored = { ...session };
  restored.messages = mapMessages(session.messages, (m) => {
    for (const b of m.blocks) if (b.type === "tool_call" && !b.native && calls[b.id]) b.native = calls[b.id];
    return reattach(m);
  });
  if (provenance.pending) restored.earlierHandoff = provenance.pending;
  // The earlier words apply only while the session still has the posture that hop wrote.
  const posture = provenance.posture;
  if (posture && session.meta.permissionMode === posture.written) {
    restored.meta = { ...session.meta, permissionNative: posture.native };
  }
  return restored;
}
