/**
 * Where translated tool calls remember their native form between hops: a small JSON file per written session
 * in session-bridge's own home, keyed by call id. Target formats stay exactly what their harness writes; a
 * session read back later gets its calls' native forms attached again.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HarnessName, NativeToolCall, Session } from "../ir/schema.ts";
import { bridgeHome } from "../store/backup.ts";
import { ensureDir } from "../io/publish.ts";
import { assertSafeId } from "../ids.ts";

function provenancePath(harness: HarnessName, id: string): string {
  return join(bridgeHome(), "provenance", harness, `${assertSafeId(id)}.json`);
}

export function saveProvenance(harness: HarnessName, id: string, session: Session): void {
  const calls: Record<string, NativeToolCall> = {};
  for (const m of session.messages) {
    for (const b of m.blocks) if (b.type === "tool_call" && b.native) calls[b.id] = b.native;
  }
  if (!Object.keys(calls).length) return;
  const path = provenancePath(harness, id);
  ensureDir(join(path, ".."), []);
  writeFileSync(`${path}.tmp`, JSON.stringify({ calls }));
  renameSync(`${path}.tmp`, path);
}

export function restoreProvenance(session: Session): Session {
  const path = provenancePath(session.meta.harness, session.meta.id);
  if (!existsSync(path)) return session;
  let calls: Record<string, NativeToolCall>;
  try {
    calls = (JSON.parse(readFileSync(path, "utf8")) as { calls: Record<string, NativeToolCall> }).calls;
  } catch {
    session.notices.push(`${path}: unreadable provenance file ignored`);
    return session;
  }
  for (const m of session.messages) {
    for (const b of m.blocks) if (b.type === "tool_call" && !b.native && calls[b.id]) b.native = calls[b.id];
  }
  return session;
}
