/**
 * Symbolic links where session-bridge writes: in its own folder (ledger, intents, backups, listing cache, event
 * log, all pointing outside the homes), and for each harness what its test material says its store has: each
 * database (moved outside, linked back), each folder a user may keep on another disk (followed, as the harness
 * follows it), each place a link that loops may sit, and, for a session file named by its id, that file a
 * `--force` handoff replaces (linked to a file outside, or to nothing). Each case hands off into a harness,
 * lists, runs doctor, and undoes whatever landed: nothing may be written outside, and a link a forced handoff
 * replaced is back after its undo.
 */
import { existsSync, mkdirSync, readlinkSync, renameSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { caseFindings, type Finding } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import {
  type Cast,
  createWorld,
  handoffArgs,
  homeFlags,
  landedAt,
  listing,
  type Member,
  ofShape,
  operationOf,
  outcomeOf,
  type Run,
  runCli,
  type World,
} from "./world.ts";

/** A case: the harness handed off into, and how the world is made ready for the handoff. */
interface Placement {
  name: string;
  /** The harness handed off into. */
  to: string;
  /** Puts the link in place; returns the handoff's extra flags, and the link a forced handoff replaces. */
  place(world: World): Promise<Placed>;
}

interface Placed {
  extra: string[];
  replaced?: { link: string; points: string };
  /** The runs that set the case up (checked with the rest). */
  runs: Run[];
}

/** A link at `path` to `target`, its folder made first. */
function link(target: string, path: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  symlinkSync(target, path);
}

const outsideFile = (world: World) => join(world.outside, "unrelated.txt");

const OWN_FOLDER: Record<string, (world: World) => [string, string]> = {
  "ledger.jsonl": (w) => [outsideFile(w), join(w.bridge, "ledger.jsonl")],
  intents: (w) => [w.outside, join(w.bridge, "intents")],
  backups: (w) => [w.outside, join(w.bridge, "backups")],
  cache: (w) => [w.outside, join(w.bridge, "cache")],
  "events.db": (w) => [outsideFile(w), join(w.bridge, "events.db")],
};

/** A placement made by `place` alone, with no run of its own. */
const placing = (name: string, to: string, place: (world: World) => void): Placement => ({
  name,
  to,
  place: (world) => {
    place(world);
    return Promise.resolve({ extra: [], runs: [] });
  },
});

/** session-bridge's own folder linked outside, each part of it, in a handoff into a file store and a database. */
const ownFolder = (cast: Cast): Placement[] =>
  Object.entries(OWN_FOLDER).flatMap(([name, where]) =>
    [ofShape(cast, "files"), ofShape(cast, "database rows")].map(({ harness }) =>
      placing(
        `session-bridge's ${name} linked outside, handoff into ${harness.name}`,
        harness.name,
        (world) => link(...where(world)),
      )
    )
  );

/** What each harness's store offers a link: its databases, folders kept on another disk, loops, its files. */
function storeLinks({ harness, hostile }: Member): Placement[] {
  const to = harness.name;
  return [
    ...hostile.databases.map(({ file }) =>
      placing(`${harness.title}'s ${file} moved outside and linked`, to, (world) => {
        const path = join(world.homes[to]!, file);
        const outside = join(world.outside, basename(file));
        renameSync(path, outside);
        symlinkSync(outside, path);
      })
    ),
    ...hostile.linkedFolders.map((folder) =>
      placing(`${harness.title}'s ${folder} linked to another disk`, to, (world) => {
        const disk = join(world.root, "homes", "bigger-disk");
        const path = join(world.homes[to]!, folder);
        // What the folder holds goes with it, as when a user moves it to another disk.
        if (existsSync(path)) renameSync(path, disk);
        else mkdirSync(disk);
        symlinkSync(disk, path);
      })
    ),
    ...hostile.loops.map((loop) =>
      placing(
        `a link that loops at ${harness.title}'s ${loop}`,
        to,
        (world) => link(basename(loop), join(world.homes[to]!, loop)),
      )
    ),
    ...(hostile.sessionFileById
      ? Object.entries(FORCED).map(([name, points]) => forced(name, harness, points))
      : []),
  ];
}

/** The forced handoffs over a link where a session's file goes: set up by a handoff and undo of their own. */
const FORCED = {
  "--force over a session file linked outside": (world: World) => outsideFile(world),
  "--force over a dangling link where the session file goes": (world: World) =>
    join(world.outside, "gone.jsonl"),
};

function forced(name: string, harness: Member["harness"], points: (world: World) => string): Placement {
  return {
    name: `${name}, into ${harness.name}`,
    to: harness.name,
    async place(world) {
      const id = harness.store.newId(new Date(Date.UTC(2026, 0, 2)));
      // Where the harness keeps the session of `id` for the world's working folder: the first handoff shows it.
      const first = await runCli(world, handoffArgs(world, harness.name, "--session-id", id));
      const op = operationOf(first);
      const path = landedAt(first);
      if (!op || !path) throw new Error(`the handoff placing a session file failed: ${first.stderr}`);
      const runs = [first, await runCli(world, ["undo", op])];
      const target = points(world);
      symlinkSync(target, path);
      return { extra: ["--session-id", id, "--force"], replaced: { link: path, points: target }, runs };
    },
  };
}

/** Every case over `cast`: session-bridge's own folder, then each harness's store. */
const placements = (cast: Cast): Placement[] => [...ownFolder(cast), ...cast.members.flatMap(storeLinks)];

export const links: CampaignKind = {
  unavailable: () => undefined,
  cases: (cast) => placements(cast).length,
  async run(root, cast, index) {
    const all = placements(cast);
    const { name, to, place } = all[index % all.length]!;
    const world = createWorld(root, cast);
    const findings: Finding[] = [];
    const { extra, replaced, runs } = await place(world);
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
