/**
 * Symbolic links where session-bridge writes: in its own folder (ledger, intents, backups, listing cache, event
 * log, all pointing outside the homes), over a harness's state database (moved outside, linked back), over the
 * transcript a `--force` handoff replaces (to a file outside, or to nothing), a projects folder linked to
 * another disk (followed, as Claude Code follows it), and links that loop under a store's folders. Each case
 * hands off into a harness, lists, runs doctor, and undoes whatever landed: nothing may be written outside, and
 * a link a forced handoff replaced is back after its undo.
 */
import { mkdirSync, readlinkSync, renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry, findHarness } from "../../lib/mod.ts";
import { caseFindings, type Finding } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import {
  createWorld,
  handoffArgs,
  HARNESS,
  homeFlags,
  listing,
  operationOf,
  outcomeOf,
  type Run,
  runCli,
  type Target,
  type World,
} from "./world.ts";

interface Placement {
  /** The harness handed off into. */
  to: Target;
  /** Puts the link in place; returns the handoff's extra flags, and the link a forced handoff replaces. */
  place(world: World): { extra: string[]; replaced?: { link: string; points: string } };
}

/** A link at `path` to `target`, its folder made first. */
function link(target: string, path: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  symlinkSync(target, path);
}

const outsideFile = (world: World) => join(world.outside, "unrelated.txt");

/** Where Claude Code keeps a transcript of `id` for the world's working folder (the first handoff shows it). */
async function transcriptPath(world: World, id: string): Promise<{ path: string; runs: Run[] }> {
  const first = await runCli(world, handoffArgs(world, "claude", "--session-id", id));
  const op = operationOf(first);
  const path = (JSON.parse(first.stdout || "{}") as { target?: { path?: string } }).target?.path;
  if (!op || !path) throw new Error(`the handoff placing a transcript failed: ${first.stderr}`);
  return { path, runs: [first, await runCli(world, ["undo", op])] };
}

const claudeId = () =>
  findHarness(builtinRegistry, HARNESS.claude).store.newId(new Date(Date.UTC(2026, 0, 2)));

const OWN_FOLDER: Record<string, (world: World) => [string, string]> = {
  "ledger.jsonl": (w) => [outsideFile(w), join(w.homes.bridge, "ledger.jsonl")],
  intents: (w) => [w.outside, join(w.homes.bridge, "intents")],
  backups: (w) => [w.outside, join(w.homes.bridge, "backups")],
  cache: (w) => [w.outside, join(w.homes.bridge, "cache")],
  "events.db": (w) => [outsideFile(w), join(w.homes.bridge, "events.db")],
};

const PLACEMENTS: Record<string, Placement> = {
  ...Object.fromEntries(
    Object.entries(OWN_FOLDER).flatMap(([name, where]) =>
      (["claude", "hermes"] as const).map((to) => [
        `session-bridge's ${name} linked outside, handoff into ${to}`,
        {
          to,
          place: (world: World) => {
            link(...where(world));
            return { extra: [] };
          },
        },
      ])
    ),
  ),
  "Codex's state_5.sqlite moved outside and linked": {
    to: "codex",
    place: (world) => {
      const outside = join(world.outside, "state_5.sqlite");
      renameSync(world.databases.codex, outside);
      symlinkSync(outside, world.databases.codex);
      return { extra: [] };
    },
  },
  "Hermes's state.db moved outside and linked": {
    to: "hermes",
    place: (world) => {
      const outside = join(world.outside, "state.db");
      renameSync(world.databases.hermes, outside);
      symlinkSync(outside, world.databases.hermes);
      return { extra: [] };
    },
  },
  "Claude Code's projects linked to another disk": {
    to: "claude",
    place: (world) => {
      const disk = join(world.root, "homes", "bigger-disk");
      mkdirSync(disk);
      symlinkSync(disk, join(world.homes.claude, "projects"));
      return { extra: [] };
    },
  },
  "a link that loops under Claude Code's projects": {
    to: "claude",
    place: (world) => {
      link("loop", join(world.homes.claude, "projects", "loop"));
      return { extra: [] };
    },
  },
  "Hermes's profiles a link that loops": {
    to: "hermes",
    place: (world) => {
      link("profiles", join(world.homes.hermes, "profiles"));
      return { extra: [] };
    },
  },
};

/** The forced handoffs over a link where the transcript goes: set up by a handoff and undo of their own. */
const FORCED = {
  "--force over a transcript linked outside": (world: World) => outsideFile(world),
  "--force over a dangling link where the transcript goes": (world: World) =>
    join(world.outside, "gone.jsonl"),
};

const NAMES = [...Object.keys(PLACEMENTS), ...Object.keys(FORCED)];

export const LINK_PLACEMENTS = NAMES.length;

export const links: CampaignKind = {
  unavailable: () => undefined,
  async run(root, index) {
    const name = NAMES[index % NAMES.length]!;
    const world = createWorld(root);
    const runs: Run[] = [];
    const findings: Finding[] = [];
    let to: Target;
    let extra: string[];
    let replaced: { link: string; points: string } | undefined;
    if (name in PLACEMENTS) {
      to = PLACEMENTS[name]!.to;
      ({ extra, replaced } = PLACEMENTS[name]!.place(world));
    } else {
      to = "claude";
      const id = claudeId();
      const placed = await transcriptPath(world, id);
      runs.push(...placed.runs);
      const points = FORCED[name as keyof typeof FORCED](world);
      symlinkSync(points, placed.path);
      replaced = { link: placed.path, points };
      extra = ["--session-id", id, "--force"];
    }
    const outsideBefore = listing(world.outside);
    const handoff = await runCli(world, handoffArgs(world, to, ...extra));
    runs.push(
      handoff,
      await runCli(world, ["list", ...homeFlags(world)]),
      await runCli(world, ["doctor", ...homeFlags(world)]),
    );
    const op = operationOf(handoff);
    if (op) runs.push(await runCli(world, ["undo", op]));
    if (replaced && op) {
      let now: string | undefined;
      try {
        now = readlinkSync(replaced.link);
      } catch {
        now = undefined;
      }
      if (now !== replaced.points) {
        findings.push({
          kind: "outcome",
          detail: `after undo ${replaced.link} links to ${now ?? "nothing"}, not ${replaced.points}`,
        });
      }
    }
    return {
      label: name,
      outcome: outcomeOf(handoff),
      findings: [...findings, ...caseFindings(world, outsideBefore, runs)],
    };
  },
};
