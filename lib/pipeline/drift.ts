/**
 * Drift over whole stores: every session a harness lists, read-only, its unknown shapes merged by where they
 * occur. Shared by `session-bridge drift` and by `certify`, which scans each store it has just seeded. A store
 * that cannot be listed is reported by name; the others are still scanned.
 */
import type { DriftEntry } from "../ir/schema.ts";
import type { Harness, Homes, ReadOptions } from "../harnesses/types.ts";
import { messageOf } from "../errors.ts";
import { type BrokenStore, brokenStoreLine, listStores } from "../harnesses/stores.ts";

export interface DriftFinding extends Omit<DriftEntry, "examples"> {
  /** Sessions (by id) where it was seen; never their content. */
  sessions: string[];
}

export interface DriftScan {
  sessions: number;
  drift: DriftFinding[];
  unreadable: { harness: string; id: string; error: string }[];
  /** Stores that could not be listed at all: every session in them went unchecked. */
  brokenStores: BrokenStore[];
}

const SHOWN_SESSIONS = 3;

export async function scanDrift(
  harnesses: readonly Harness[],
  homes: Homes,
  options: ReadOptions = {},
): Promise<DriftScan> {
  const findings = new Map<string, DriftFinding>();
  const unreadable: DriftScan["unreadable"] = [];
  let sessions = 0;
  const listing = await listStores(harnesses, homes);
  for (const row of listing.sessions) {
    const h = harnesses.find((c) => c.name === row.harness)!;
    sessions++;
    try {
      for (const d of (await h.store.read(row.path, options)).drift) {
        const key = [d.harness, d.version, d.where, d.problem].join("\u0000");
        const found = findings.get(key) ??
          {
            harness: d.harness,
            version: d.version,
            where: d.where,
            problem: d.problem,
            count: 0,
            sessions: [],
          };
        found.count += d.count;
        if (found.sessions.length < SHOWN_SESSIONS && !found.sessions.includes(row.id)) {
          found.sessions.push(row.id);
        }
        findings.set(key, found);
      }
    } catch (error) {
      unreadable.push({ harness: h.name, id: row.id, error: messageOf(error) });
    }
  }
  const drift = [...findings.values()].sort((a, b) =>
    `${a.harness}${a.where}`.localeCompare(`${b.harness}${b.where}`)
  );
  return { sessions, drift, unreadable, brokenStores: listing.broken };
}

/** One line per finding, naming the shape and never the content. */
export function driftLines(scan: DriftScan): string[] {
  return [
    ...scan.drift.map((f) =>
      `${f.harness} ${f.version}  ${f.where}: ${f.problem} (x${f.count}; e.g. ${f.sessions.join(", ")})`
    ),
    ...scan.unreadable.map((u) => `${u.harness} ${u.id}: unreadable: ${u.error}`),
    ...scan.brokenStores.map(brokenStoreLine),
  ];
}
