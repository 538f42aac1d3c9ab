/**
 * Permissions as a user they bind (the CLI runs as `nobody` when this process is root, tests/helpers/
 * unprivileged.ts): each harness's home unreadable, a home and its databases read-only, the folder a session
 * file named by its id lands in read-only (each as its test material says its store is), session-bridge's
 * folder, ledger or backups read-only, the session to hand off unreadable.
 * Each case lists, hands off into the harness (or undoes an earlier handoff) with the mode set, then gives the
 * modes back and undoes what landed: every refusal one clear line, nothing half-written.
 */
import { chmodSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Unprivileged, unprivileged } from "../../tests/helpers/unprivileged.ts";
import { caseFindings } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import {
  type Cast,
  createWorld,
  databasesOf,
  handoffArgs,
  homeFlags,
  landedAt,
  listing,
  type Member,
  ofShape,
  operationOf,
  outcomeOf,
  type Run,
  type World,
  worldEnv,
} from "./world.ts";

interface Placement {
  name: string;
  to: string;
  /** Whether the command tried under the mode is the undo of a handoff made before it is set. */
  undo: boolean;
  /** The paths whose mode is set for the command, and the mode. */
  modes(world: World, handedOff: string | undefined): [string, number][];
}

/** What each harness's store offers a mode: its home, its databases, the folder a session file lands in. */
function storeModes({ harness, hostile }: Member): Placement[] {
  const to = harness.name;
  const databases = hostile.databases.map((d) => d.file);
  return [
    { name: `${harness.title}'s home unreadable`, to, undo: false, modes: (w) => [[w.homes[to]!, 0o000]] },
    ...(databases.length
      ? [{
        name: `${harness.title}'s home and ${databases.join(", ")} read-only`,
        to,
        undo: false,
        modes: (w: World): [string, number][] => [
          ...databasesOf(w, to).map((d): [string, number] => [d.path, 0o444]),
          [w.homes[to]!, 0o555],
        ],
      }]
      : []),
    ...(hostile.sessionFileById
      ? [{
        name: `the folder of a session handed off into ${harness.title} read-only, then undo`,
        to,
        undo: true,
        modes: (
          _w: World,
          path: string | undefined,
        ): [string, number][] => (path ? [[dirname(path), 0o555]] : []),
      }]
      : []),
  ];
}

/** session-bridge's folder and the session handed off, each in a handoff into one way of keeping sessions. */
function ownModes(cast: Cast): Placement[] {
  const indexed = ofShape(cast, "indexed files").harness.name;
  const rows = ofShape(cast, "database rows").harness.name;
  return [
    { name: "session-bridge's folder read-only", to: rows, undo: false, modes: (w) => [[w.bridge, 0o555]] },
    {
      name: "the session handed off unreadable",
      to: indexed,
      undo: false,
      modes: (w) => [[w.source, 0o000]],
    },
    {
      name: "the ledger read-only, then undo",
      to: indexed,
      undo: true,
      modes: (w) => [[join(w.bridge, "ledger.jsonl"), 0o444]],
    },
    {
      name: "the backups folder read-only, then undo",
      to: rows,
      undo: true,
      modes: (w) => [[join(w.bridge, "backups"), 0o555]],
    },
  ];
}

/** Every case over `cast`: session-bridge's folder and the session handed off, then each harness's store. */
const placements = (cast: Cast): Placement[] => [...ownModes(cast), ...cast.members.flatMap(storeModes)];

/** The way to run a cast's CLI as a user permissions bind, looked for once (it runs the CLI to see). */
const found = new Map<string, Unprivileged | string>();
const asUser = (cast: Cast) => {
  const key = cast.cli.join("\0");
  if (!found.has(key)) found.set(key, unprivileged(cast.cli));
  return found.get(key)!;
};

export const permissions: CampaignKind = {
  unavailable(cast) {
    const as = asUser(cast);
    return typeof as === "string" ? as : undefined;
  },
  cases: (cast) => placements(cast).length,
  run(root, cast, index) {
    const as = asUser(cast);
    if (typeof as === "string") throw new Error(as);
    const all = placements(cast);
    const { name, to, undo, modes } = all[index % all.length]!;
    // A folder of the case's own: `own` makes the one holding it passable too, and that must not be the temp root.
    const world = createWorld(join(root, "world"), cast);
    as.own(world.root);
    const outsideBefore = listing(world.outside);
    const cli = (args: string[]): Run => ({ args, ...as.cli(args, worldEnv(world)) });
    const runs: Run[] = [];
    let op: string | undefined;
    let path: string | undefined;
    let tried: Run;
    if (undo) {
      const handed = cli(handoffArgs(world, to));
      runs.push(handed);
      op = operationOf(handed);
      path = landedAt(handed);
    }
    const set = modes(world, path).map(([p, mode]) => ({ p, mode, was: statSync(p).mode & 0o7777 }));
    for (const { p, mode } of set) chmodSync(p, mode);
    try {
      runs.push(cli(["list", ...homeFlags(world)]));
      tried = cli(undo && op ? ["undo", op] : handoffArgs(world, to));
      runs.push(tried);
      if (!undo) op = operationOf(tried);
      else if (tried.code === 0) op = undefined;
    } finally {
      for (const { p, was } of set.reverse()) chmodSync(p, was);
    }
    if (op) runs.push(cli(["undo", op]));
    return Promise.resolve({
      label: name,
      outcome: `${undo ? "undo" : "handoff"} ${outcomeOf(tried)}`,
      findings: caseFindings(world, outsideBefore, runs),
    });
  },
};
