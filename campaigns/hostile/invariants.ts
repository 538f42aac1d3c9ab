/**
 * What must hold after every case of the hostile campaigns, whatever the case did: each store passes
 * `PRAGMA integrity_check`; no half session (what one is, its harness's material says: a Codex rollout without
 * its `threads` row or the reverse, a Hermes message without its session or a new session without messages, a
 * transcript or rollout with a torn line); no
 * debris (temp files, hot journals, intents, room reservations, undo locks); a ledger that tells the truth (each
 * operation recorded once and undone at most once, a pending one's session there, an undone one's gone); every
 * line on stderr one clear line of session-bridge's own (no raw system or SQLite error, no stack); and nothing
 * written outside the homes.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { filesUnder } from "../../tests/helpers/hostile-store.ts";
import { integrityProblem } from "../integrity.ts";
import { allDatabases, halfSessions, listing, memberOf, type Run, type World } from "./world.ts";

export const FINDING_KINDS = [
  "corrupt store",
  "half session",
  "debris",
  "ledger",
  "winners",
  "unclear message",
  "exit status",
  "written outside",
  "outcome",
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface Finding {
  kind: FindingKind;
  detail: string;
}

/** What a message must never carry: a raw system error code, SQLite's words, a stack frame, an error's class. */
const RAW =
  /\b(?:E[A-Z]{3,}[A-Z]*)\b(?::| \()|SQLITE_|disk I\/O error|not an error|^\s+at |\b[A-Z]\w*Error\b/m;
/** A line of session-bridge's own: a message, or the count `--redact` notes (README, "redacted N secrets"). */
const OWN_LINE = /^session-bridge: \S|^redacted \d+ secrets?$/;
/** What must never reach a terminal as is: C0 controls but tab and the line's end, DEL, bidi overrides. */
// deno-lint-ignore no-control-regex -- finding control characters is what it is for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

/** A run's exit status and stderr: 0, 1 or 2, and every line one of session-bridge's own, nothing raw. */
export function runFindings(run: Run): Finding[] {
  const findings: Finding[] = [];
  const command = run.args.slice(0, 2).join(" ");
  if (run.code === null || run.code > 2) {
    findings.push({ kind: "exit status", detail: `${command} ended with ${run.code ?? "a signal"}` });
  }
  for (const line of run.stderr.split("\n").filter(Boolean)) {
    if (!OWN_LINE.test(line) || RAW.test(line) || CONTROL.test(line)) {
      findings.push({ kind: "unclear message", detail: `${command}: ${JSON.stringify(line.slice(0, 300))}` });
    }
  }
  return findings;
}

/** The world's state against the rules above; `outsideBefore` is the listing of `outside` before the case. */
export function worldFindings(world: World, outsideBefore: Record<string, string>): Finding[] {
  const findings: Finding[] = [];
  const outsideNow = listing(world.outside);
  for (const key of new Set([...Object.keys(outsideBefore), ...Object.keys(outsideNow)])) {
    if (outsideBefore[key] !== outsideNow[key]) {
      findings.push({
        kind: "written outside",
        detail: `${join(world.outside, key)}: ${outsideBefore[key] ?? "absent"} -> ${
          outsideNow[key] ?? "gone"
        }`,
      });
    }
  }
  const stray = readdirSync(world.root).filter((n) => !["homes", "outside", ...world.placedIn].includes(n));
  for (const name of stray) findings.push({ kind: "written outside", detail: join(world.root, name) });
  for (const database of allDatabases(world)) {
    const damage = integrityProblem(database);
    if (damage) findings.push({ kind: "corrupt store", detail: `${database}: ${damage}` });
  }
  findings.push(...halfSessionFindings(world), ...debris(world), ...ledgerFindings(world));
  return findings;
}

function halfSessionFindings(world: World): Finding[] {
  return halfSessions(world).filter((detail) => !world.halfBefore.has(detail)).map((detail) => ({
    kind: "half session",
    detail,
  }));
}

const DEBRIS = /\.tmp$|\.takeover$|\.room$|^undo-.+\.lock$/;

function debris(world: World): Finding[] {
  const left = [...Object.values(world.homes), world.bridge].flatMap((home) =>
    filesUnder(home, (name) => DEBRIS.test(name) || name.endsWith("-journal"))
  ).filter((path) => !path.endsWith("-journal") || lstatSync(path).size > 0);
  const intents = join(world.bridge, "intents");
  if (existsSync(intents) && lstatSync(intents).isDirectory()) {
    left.push(...readdirSync(intents).map((n) => join(intents, n)).filter((p) => !left.includes(p)));
  }
  return left.map((path) => ({ kind: "debris", detail: path }));
}

interface Recorded {
  op?: string;
  undone?: string;
  target?: { harness: string; id: string; path: string };
  /** What a --force handoff replaced: undo puts it back, so its path is there after the undo too. */
  replaced?: { path: string }[];
}

/** The ledger as recorded (a link in its place was refused, so there is nothing of ours to read through it). */
function ledgerRecords(world: World): Recorded[] {
  const path = join(world.bridge, "ledger.jsonl");
  if (!existsSync(path) || !lstatSync(path).isFile()) return [];
  return readFileSync(path, "utf8").split("\n").filter((l) => l.trim()).flatMap((line) => {
    try {
      return [JSON.parse(line) as Recorded];
    } catch {
      return [];
    }
  });
}

function ledgerFindings(world: World): Finding[] {
  const findings: Finding[] = [];
  const wrong = (detail: string) => findings.push({ kind: "ledger", detail });
  const records = ledgerRecords(world);
  const entries = records.filter((r) => r.op && r.target);
  const undone = records.flatMap((r) => (r.undone ? [r.undone] : []));
  const times = (list: string[], op: string) => list.filter((o) => o === op).length;
  const ops = entries.map((e) => e.op!);
  for (const op of new Set(ops)) if (times(ops, op) > 1) wrong(`${op} is recorded ${times(ops, op)} times`);
  for (const op of new Set(undone)) {
    if (times(undone, op) > 1) wrong(`${op} is marked undone ${times(undone, op)} times`);
    if (!ops.includes(op)) wrong(`${op} is marked undone and was never recorded`);
  }
  const pendingTargets = new Set(entries.filter((e) => !undone.includes(e.op!)).map((e) => e.target!.id));
  // A path some --force handoff replaced is put back by its undo: there or not, it says nothing of the others.
  const putBack = new Set(entries.flatMap((e) => e.replaced?.map((r) => r.path) ?? []));
  for (const e of new Map(entries.map((e) => [e.op!, e])).values()) {
    const there = targetPresent(world, e.target!);
    if (there === undefined) continue;
    if (!undone.includes(e.op!) && !there) wrong(`${e.op} is pending and ${e.target!.path} is gone`);
    if (
      undone.includes(e.op!) && there && !pendingTargets.has(e.target!.id) && !putBack.has(e.target!.path)
    ) {
      wrong(`${e.op} is marked undone and ${e.target!.path} is still there`);
    }
  }
  return findings;
}

/** Whether a ledger entry's session is in its target (undefined: it cannot be told, from its store or at all). */
function targetPresent(
  world: World,
  target: { harness: string; id: string; path: string },
): boolean | undefined {
  const home = world.homes[target.harness];
  return home === undefined ? undefined : memberOf(world.cast, target.harness).hostile.holds(home, target);
}

/** Everything found after a case: its runs' statuses and messages, and the world's state. */
export function caseFindings(
  world: World,
  outsideBefore: Record<string, string>,
  runs: readonly Run[],
): Finding[] {
  return [...runs.flatMap(runFindings), ...worldFindings(world, outsideBefore)];
}
