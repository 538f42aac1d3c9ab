/**
 * Races: eight CLI processes started at once on the same thing. Eight handoffs of one session under the same
 * `--session-id` (exactly one writes it, the others are refused), eight undos of one operation (exactly one undoes
 * it, the others say it is already undone), and eight handoffs with ids of their own, then their eight undos
 * at once (each wins its own). Case `index` takes the target harness and the race from its index, so the
 * default count covers each pair.
 */
import type { Random } from "../fuzz/random.ts";
import { caseFindings, type Finding } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import {
  createWorld,
  handoffArgs,
  listing,
  type Member,
  operationOf,
  type Run,
  runCli,
  type World,
} from "./world.ts";

export const RACERS = 8;
const SHAPES = ["same id", "one undo", "own ids"] as const;
type Shape = (typeof SHAPES)[number];

const ALREADY_UNDONE = (op: string) => `session-bridge: operation ${op} is already undone`;
/** The notice an undo prints while another process holds the operation's lock. */
const WAITING = /^session-bridge: operation \S+ is being undone by process \d+ on .*: waiting for it/;

const atOnce = (world: World, commands: string[][]): Promise<Run[]> =>
  Promise.all(commands.map((args) => runCli(world, args)));

const winners = (detail: string): Finding => ({ kind: "winners", detail });
const exits = (runs: readonly Run[]) => runs.map((r) => r.code).join(",");

/** Eight handoffs under one id: one exit 0, seven refusals; then the winner undone. */
async function sameId(world: World, { harness }: Member, random: Random): Promise<[Run[], Finding[]]> {
  const to = harness.name;
  const id = harness.store.newId(new Date(Date.UTC(2026, 0, 1, 0, 0, random.int(0, 59))));
  const runs = await atOnce(
    world,
    Array.from({ length: RACERS }, () => handoffArgs(world, to, "--session-id", id)),
  );
  const won = runs.filter((r) => r.code === 0);
  const findings: Finding[] = [];
  if (won.length !== 1) {
    findings.push(winners(`${won.length} of ${RACERS} handoffs under one id won (exits ${exits(runs)})`));
  }
  for (const r of runs) {
    if (r.code !== 0 && r.code !== 1) findings.push(winners(`a handoff that lost exited ${r.code}`));
  }
  const undos = await Promise.all(won.flatMap((r) => {
    const op = operationOf(r);
    return op ? [runCli(world, ["undo", op])] : [];
  }));
  return [[...runs, ...undos], findings];
}

/** One handoff, then eight undos of it: one exit 0, seven saying it is already undone. */
async function oneUndo(world: World, to: string, random: Random): Promise<[Run[], Finding[]]> {
  const handoff = await runCli(world, handoffArgs(world, to));
  const op = operationOf(handoff);
  if (!op) return [[handoff], [winners(`the handoff before the race failed: ${handoff.stderr.trim()}`)]];
  const force = random.int(0, 1) === 1 ? ["--force"] : [];
  const runs = await atOnce(world, Array.from({ length: RACERS }, () => ["undo", op, ...force]));
  const findings: Finding[] = [];
  const won = runs.filter((r) => r.code === 0).length;
  if (won !== 1) findings.push(winners(`${won} of ${RACERS} undos of ${op} won (exits ${exits(runs)})`));
  for (const r of runs.filter((r) => r.code !== 0)) {
    const lines = r.stderr.trimEnd().split("\n");
    if (
      r.code !== 1 || lines.at(-1) !== ALREADY_UNDONE(op) || !lines.slice(0, -1).every((l) => WAITING.test(l))
    ) {
      findings.push(winners(`an undo that lost exited ${r.code}: ${JSON.stringify(r.stderr.slice(0, 300))}`));
    }
  }
  return [[handoff, ...runs], findings];
}

/**
 * Eight handoffs with ids (and titles: Hermes's are unique) of their own at once, then their undos at once:
 * every one wins its own.
 */
async function ownIds(world: World, to: string): Promise<[Run[], Finding[]]> {
  const handoffs = await atOnce(
    world,
    Array.from({ length: RACERS }, (_, i) => handoffArgs(world, to, "--title", `racer ${i}`)),
  );
  const ops = handoffs.flatMap((r) => operationOf(r) ?? []);
  const findings: Finding[] = [];
  if (ops.length !== RACERS || new Set(ops).size !== RACERS) {
    findings.push(
      winners(`${ops.length} of ${RACERS} handoffs with their own ids landed (exits ${exits(handoffs)})`),
    );
  }
  const undos = await atOnce(world, ops.map((op) => ["undo", op]));
  const undone = undos.filter((r) => r.code === 0).length;
  if (undone !== ops.length) {
    findings.push(winners(`${undone} of ${ops.length} undos of their own operations won`));
  }
  return [[...handoffs, ...undos], findings];
}

export const races: CampaignKind = {
  unavailable: () => undefined,
  cases: (cast) => SHAPES.length * cast.members.length,
  async run(root, cast, index, random) {
    const { members } = cast;
    const member = members[index % members.length]!;
    const to = member.harness.name;
    const shape: Shape = SHAPES[Math.floor(index / members.length) % SHAPES.length]!;
    const world = createWorld(root, cast);
    const outsideBefore = listing(world.outside);
    const [runs, findings] = shape === "same id"
      ? await sameId(world, member, random)
      : shape === "one undo"
      ? await oneUndo(world, to, random)
      : await ownIds(world, to);
    return {
      label: `${RACERS} at once, ${shape}, into ${to}`,
      outcome: findings.some((f) => f.kind === "winners")
        ? "winners wrong"
        : shape === "own ids"
        ? "each won its own"
        : "one winner",
      findings: [...findings, ...caseFindings(world, outsideBefore, runs)],
    };
  },
};
