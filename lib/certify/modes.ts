/**
 * How each mode seeds a route and decides whether a handed-off session survived: by what the resumed harness
 * sent the fake model, every part once and in order (full), by what the real model recalls (real), or by what
 * the target store holds (structure).
 */
import { randomBytes } from "node:crypto";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import { findOnPath } from "../certify-kit/binaries.ts";
import type { HandedOff } from "./bridge.ts";
import {
  assistantSentinel,
  checkOrder,
  checkRecall,
  checkSent,
  ConversationParts,
  seededParts,
  type SentinelPlan,
  sentinelPlan,
} from "../certify-kit/sentinels.ts";
import { sampleSentinels, sessionParts, writeSample } from "./structure.ts";
import { sampleFor } from "../samples.ts";
import type { Expected, HarnessUnderTest, Mode, Seeded } from "../certify-kit/driver.ts";
import type { SeedStyle } from "./types.ts";

export interface Seeding {
  /** What the first handoff names: the source's session id, or a sample file. */
  session: string;
  /** The sentinels by role (structure and real modes). */
  expected: Expected;
  /** Every part the resumed model must be sent, once and in order (full mode); grows with each stop's turn. */
  parts: ConversationParts;
  /** What the harness resumed at a stop is asked (modes that resume). */
  resume(stop: number, at: string): string;
}

/** What a seeding runs with, besides the harness, the folder and the style. */
export interface SeedSetup {
  /** The source binary's version (structure mode seeds its captured sample). */
  version: string;
  /** The route's own folder. */
  work: string;
  registry: Registry;
  /** The PATH of the user's environment, where tmux is looked for (TUI styles). */
  path: string | undefined;
}

export interface ModeRunner {
  /** Whether the seeded store was written by the harness under test, so its drift is worth reporting. */
  seedsStore: boolean;
  /** The seed styles this mode can run. */
  styles: readonly SeedStyle[];
  seed(from: HarnessUnderTest, cwd: string, style: SeedStyle, setup: SeedSetup): Promise<Seeding>;
  /**
   * Why the handed-off session did not survive in `to` at stop `stop` (1 for the first target); empty when it
   * did. A resumed turn and its reply join `seeding.parts`, since every later stop must carry them too.
   */
  verify(
    to: HarnessUnderTest,
    handed: HandedOff,
    cwd: string,
    seeding: Seeding,
    stop: number,
    registry: Registry,
  ): Promise<string[]>;
}

/** Why sessions cannot be typed into a TUI here (tmux is not on `path`), or undefined when they can. */
export function tuiUnavailable(path: string | undefined): string | undefined {
  return findOnPath("tmux", path ?? "")
    ? undefined
    : "typing into a harness's TUI needs tmux on PATH (e.g. apt-get install tmux)";
}

/** A TUI style that cannot be seeded here (no tmux) fails its row, saying so: never a skip. */
function seedIn(
  from: HarnessUnderTest,
  cwd: string,
  style: SeedStyle,
  plan: SentinelPlan,
  path: string | undefined,
): Promise<Seeded> {
  if (style === "exec") return from.seed(cwd, plan.prompts);
  const missing = tuiUnavailable(path);
  if (missing) throw new Error(missing);
  if (style === "interactive") return from.seedInteractive(cwd, plan.prompts);
  if (!plan.interrupt) throw new Error("interrupted sessions are seeded against the fake servers only");
  return from.seedInterrupted(cwd, plan.interrupt);
}

async function seedThroughBinary(
  mode: Mode,
  from: HarnessUnderTest,
  cwd: string,
  style: SeedStyle,
  path: string | undefined,
): Promise<Seeding> {
  const tag = randomBytes(3).toString("hex");
  const plan = sentinelPlan(mode, tag);
  const seeded = await seedIn(from, cwd, style, plan, path);
  const prompts = style === "interrupted" && plan.interrupt ? plan.interrupt : plan.prompts;
  const assistant = assistantSentinel(mode, seeded.firstReply, prompts);
  return {
    session: seeded.id,
    expected: { user: plan.user, tool: plan.tool, assistant },
    parts: seededParts(prompts, assistant, plan.tool),
    resume: plan.resume,
  };
}

const full: ModeRunner = {
  seedsStore: true,
  styles: ["exec", "interactive", "interrupted"],
  seed: (from, cwd, style, { path }) => seedThroughBinary("full", from, cwd, style, path),
  async verify(to, handed, cwd, seeding, stop) {
    const before = to.requestCount();
    const prompt = seeding.resume(stop, to.id);
    const turn = await to.resume(cwd, handed.id, prompt);
    const reasons = turn.ok ? [] : [`${to.id} resume failed: ${turn.detail}`];
    if (to.requestCount() === before) return [...reasons, `${to.id} sent no request to the model on resume`];
    reasons.push(...checkOrder(to.lastRequest(), seeding.parts.parts));
    seeding.parts.add(`typed prompt in ${to.id}`, ["user"], prompt);
    if (turn.reply.trim()) seeding.parts.add(`assistant text in ${to.id}`, ["assistant"], turn.reply.trim());
    else reasons.push(`${to.id} answered the resumed turn with no text`);
    return reasons;
  },
};

const real: ModeRunner = {
  seedsStore: true,
  styles: ["exec"],
  seed: (from, cwd, style, { path }) => seedThroughBinary("real", from, cwd, style, path),
  async verify(to, handed, cwd, seeding, stop) {
    const turn = await to.resume(cwd, handed.id, seeding.resume(stop, to.id));
    if (!turn.ok) return [`${to.id} resume failed: ${turn.detail}`];
    return checkRecall(turn.reply, seeding.expected);
  },
};

const structure: ModeRunner = {
  seedsStore: false,
  styles: ["exec"],
  async seed(from, _cwd, _style, { version, work, registry }) {
    const source = findHarness(registry, from.id);
    const embedded = source.integrations.certify?.samples;
    const sample = from.sample?.(version) ?? (embedded && sampleFor(await embedded(), version));
    if (!sample) throw new Error(`${from.id} has no captured sample for structure-only certify`);
    const path = writeSample(sample, work);
    const expected = sampleSentinels(sessionParts(await source.store.read(path)));
    return { session: path, expected, parts: new ConversationParts(), resume: () => "" };
  },
  async verify(to, handed, _cwd, seeding, _stop, registry) {
    const read = await findHarness(registry, to.id).store.read(handed.path);
    return checkSent(sessionParts(read), seeding.expected);
  },
};

export const MODE_RUNNERS: Record<Mode, ModeRunner> = { full, real, structure };
