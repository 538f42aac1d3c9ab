/**
 * Permissions as a user they bind (the CLI runs as `nobody` when this process is root, tests/helpers/
 * unprivileged.ts): a harness's home unreadable, a home and its database read-only, session-bridge's folder,
 * ledger or backups read-only, the session to hand off unreadable, a Claude Code project folder read-only.
 * Each case lists, hands off into the harness (or undoes an earlier handoff) with the mode set, then gives the
 * modes back and undoes what landed: every refusal one clear line, nothing half-written.
 */
import { chmodSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { unprivileged } from "../../tests/helpers/unprivileged.ts";
import { caseFindings } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import {
  createWorld,
  handoffArgs,
  homeFlags,
  listing,
  operationOf,
  outcomeOf,
  type Run,
  type Target,
  type World,
  worldEnv,
} from "./world.ts";

interface Placement {
  to: Target;
  /** Whether the command tried under the mode is the undo of a handoff made before it is set. */
  undo: boolean;
  /** The paths whose mode is set for the command, and the mode. */
  modes(world: World, handedOff: string | undefined): [string, number][];
}

const PLACEMENTS: Record<string, Placement> = {
  "Claude Code's home unreadable": { to: "claude", undo: false, modes: (w) => [[w.homes.claude, 0o000]] },
  "Codex's home unreadable": { to: "codex", undo: false, modes: (w) => [[w.homes.codex, 0o000]] },
  "Hermes's home unreadable": { to: "hermes", undo: false, modes: (w) => [[w.homes.hermes, 0o000]] },
  "Codex's home and state_5.sqlite read-only": {
    to: "codex",
    undo: false,
    modes: (w) => [[w.databases.codex, 0o444], [w.homes.codex, 0o555]],
  },
  "Hermes's home and state.db read-only": {
    to: "hermes",
    undo: false,
    modes: (w) => [[w.databases.hermes, 0o444], [w.homes.hermes, 0o555]],
  },
  "session-bridge's folder read-only": { to: "hermes", undo: false, modes: (w) => [[w.homes.bridge, 0o555]] },
  "the session handed off unreadable": { to: "codex", undo: false, modes: (w) => [[w.source, 0o000]] },
  "the ledger read-only, then undo": {
    to: "codex",
    undo: true,
    modes: (w) => [[join(w.homes.bridge, "ledger.jsonl"), 0o444]],
  },
  "the backups folder read-only, then undo": {
    to: "hermes",
    undo: true,
    modes: (w) => [[join(w.homes.bridge, "backups"), 0o555]],
  },
  "the Claude Code project folder read-only, then undo": {
    to: "claude",
    undo: true,
    modes: (_w, path) => (path ? [[dirname(path), 0o555]] : []),
  },
};
const NAMES = Object.keys(PLACEMENTS);

export const PERMISSION_PLACEMENTS = NAMES.length;

/** The way to run the CLI as a user permissions bind, looked for once (it runs the CLI to see). */
let found: ReturnType<typeof unprivileged> | undefined;
const asUser = () => (found ??= unprivileged());

export const permissions: CampaignKind = {
  unavailable() {
    const as = asUser();
    return typeof as === "string" ? as : undefined;
  },
  run(root, index) {
    const as = asUser();
    if (typeof as === "string") throw new Error(as);
    const name = NAMES[index % NAMES.length]!;
    const { to, undo, modes } = PLACEMENTS[name]!;
    // A folder of the case's own: `own` makes the one holding it passable too, and that must not be the temp root.
    const world = createWorld(join(root, "world"));
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
      path = (JSON.parse(handed.stdout || "{}") as { target?: { path?: string } }).target?.path;
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
