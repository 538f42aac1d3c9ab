/**
 * Aliases follow a handoff: a name bound to the source conversation in the resume folder's scope (or the name
 * asked for) is bound for the target's kind to the new id, the source's own binding kept, so `@NAME` and
 * LazyBridge's engines find the conversation in either harness. Each bind is remembered in session-bridge's
 * folder (`aliases.jsonl`, by undo operation) with the entry it replaced, so undo puts the registry back.
 * The registry belongs to the user and to LazyBridge: a bind that fails is a warning, never a failed handoff.
 */
import { appendFileSync, closeSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Harness } from "../harnesses/types.ts";
import type { NamedSessions } from "./named.ts";
import { isPyObject, pyDump, pyParse } from "../registry/python-json.ts";
import { openOwnFile } from "../io/links.ts";
import { type RegistryKind, SessionRegistry } from "../registry/registry.ts";

export interface FollowedAlias {
  name: string;
  kind: RegistryKind;
  scope: string;
  /** The id the name now names for `kind`. */
  nativeId: string;
  /** The id it named for `kind` before, if any. */
  replaced?: string;
}

export interface FollowOutcome {
  followed: FollowedAlias[];
  warnings: string[];
}

/** One bind made by a handoff, as undo needs it. */
interface FollowRecord {
  op: string;
  registry: string;
  kind: RegistryKind;
  scope: string;
  name: string;
  nativeId: string;
  /** The entry replaced, as the registry's own JSON text; null when the name was free. */
  previous: string | null;
}

export function followLogPath(bridgeHome: string): string {
  return join(bridgeHome, "aliases.jsonl");
}

export interface FollowRequest {
  named: NamedSessions;
  source: { harness: Harness; id: string };
  target: { harness: Harness; id: string; cwd: string };
  /** The name to bind (`--alias`); without it, every name bound to the source in the scope. */
  alias?: string;
  /** The undo operation the binds belong to. */
  op: string;
  bridgeHome: string;
}

export async function followAliases(request: FollowRequest): Promise<FollowOutcome> {
  const { named, source, target } = request;
  const warnings: string[] = [];
  const followed: FollowedAlias[] = [];
  try {
    const registry = named.registry;
    const scope = registry.scopeOf(target.cwd);
    const names = request.alias !== undefined ? [request.alias] : await boundNames(registry, scope, source);
    if (names.length === 0) return { followed, warnings };
    const kind = target.harness.integrations.registryKind;
    if (kind === undefined) {
      return {
        followed,
        warnings: [`${target.harness.name} has no kind in the alias registry: @${names[0]} not bound`],
      };
    }
    for (const name of names) {
      try {
        const previous = await registry.stored(kind, scope, name);
        if (previous?.native_id === target.id) continue;
        await registry.bind(kind, scope, name, target.id);
        const record: FollowRecord = {
          op: request.op,
          registry: registry.path,
          kind,
          scope,
          name,
          nativeId: target.id,
          previous: previous === undefined ? null : pyDump(previous),
        };
        // Opened without following a link (lib/io/links.ts): a linked log would put the record elsewhere.
        const fd = openOwnFile(request.bridgeHome, followLogPath(request.bridgeHome), "append");
        try {
          appendFileSync(fd, `${JSON.stringify(record)}\n`);
        } finally {
          closeSync(fd);
        }
        followed.push({
          name,
          kind,
          scope,
          nativeId: target.id,
          ...(typeof previous?.native_id === "string" ? { replaced: previous.native_id } : {}),
        });
      } catch (error) {
        warnings.push(`could not bind @${name} to ${target.harness.name} ${target.id}: ${messageOf(error)}`);
      }
    }
  } catch (error) {
    warnings.push(`could not read the alias registry: ${messageOf(error)}`);
  }
  return { followed, warnings };
}

/** The names bound to the source conversation in `scope`, for the source's kind. */
async function boundNames(
  registry: SessionRegistry,
  scope: string,
  source: FollowRequest["source"],
): Promise<string[]> {
  const kind = source.harness.integrations.registryKind;
  if (kind === undefined) return [];
  const entries = await registry.entries({ kind, scope });
  return entries.filter((e) => e.native_id === source.id).map((e) => e.name);
}

export interface RestoredAlias {
  name: string;
  kind: RegistryKind;
  scope: string;
  /** What the name names again for `kind` (none: it was free and is again). */
  nativeId?: string;
}

/**
 * Undoes the binds handoff `op` made, newest first: each name is put back as it was, unless someone re-pointed
 * it since (then it is left, with a warning).
 */
export async function restoreAliases(
  bridgeHome: string,
  op: string,
): Promise<{ restored: RestoredAlias[]; warnings: string[] }> {
  const restored: RestoredAlias[] = [];
  const warnings: string[] = [];
  for (const record of followRecords(bridgeHome, op).reverse()) {
    const registry = new SessionRegistry({ path: record.registry });
    try {
      const parsed = record.previous === null ? undefined : pyParse(record.previous);
      const previous = isPyObject(parsed) ? parsed : undefined;
      const done = await registry.restore(record.kind, record.scope, record.name, previous, {
        native_id: record.nativeId,
      });
      if (done) {
        restored.push({
          name: record.name,
          kind: record.kind,
          scope: record.scope,
          ...(typeof previous?.native_id === "string" ? { nativeId: previous.native_id } : {}),
        });
      } else {
        warnings.push(
          `@${record.name} (${record.kind}) was re-pointed since the handoff: left as it is in ${record.registry}`,
        );
      }
    } catch (error) {
      warnings.push(
        `could not restore @${record.name} (${record.kind}) in ${record.registry}: ${messageOf(error)}`,
      );
    }
  }
  return { restored, warnings };
}

function followRecords(bridgeHome: string, op: string): FollowRecord[] {
  const path = followLogPath(bridgeHome);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").flatMap((line) => {
    try {
      const record = JSON.parse(line) as FollowRecord;
      return record.op === op ? [record] : [];
    } catch {
      return []; // a line cut short by a kill
    }
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
