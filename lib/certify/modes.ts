/**
 * How each mode seeds a pair and decides whether a handed-off session survived: by what the resumed harness
 * sent the fake model (full), by what the real model recalls (real), or by what the target store holds
 * (structure).
 */
import { randomBytes } from "node:crypto";
import { harness } from "../harnesses/index.ts";
import type { HandedOff } from "./bridge.ts";
import { assistantSentinel, checkRecall, checkSent, sentinelPlan } from "./sentinels.ts";
import { sampleSentinels, sessionParts, writeSample } from "./structure.ts";
import type { Expected, HarnessUnderTest, Mode } from "./types.ts";

export interface Seeding {
  /** What the first handoff names: the source's session id, or a sample file. */
  session: string;
  expected: Expected;
  /** What a resumed harness is asked (modes that resume). */
  resumePrompt: string;
}

export interface ModeRunner {
  /** Whether the seeded store was written by the harness under test, so its drift is worth reporting. */
  seedsStore: boolean;
  seed(from: HarnessUnderTest, cwd: string, version: string, work: string): Promise<Seeding>;
  /** Why the handed-off session did not survive in `to`; empty when every sentinel arrived in its role. */
  verify(to: HarnessUnderTest, handed: HandedOff, cwd: string, seeding: Seeding): Promise<string[]>;
}

async function seedThroughBinary(mode: Mode, from: HarnessUnderTest, cwd: string): Promise<Seeding> {
  const plan = sentinelPlan(mode, randomBytes(3).toString("hex"));
  const seeded = await from.seed(cwd, plan.prompts);
  return {
    session: seeded.id,
    expected: {
      user: plan.user,
      tool: plan.tool,
      assistant: assistantSentinel(mode, seeded.firstReply, plan.prompts),
    },
    resumePrompt: plan.resume,
  };
}

const full: ModeRunner = {
  seedsStore: true,
  seed: (from, cwd) => seedThroughBinary("full", from, cwd),
  async verify(to, handed, cwd, seeding) {
    const before = to.requestCount();
    const turn = await to.resume(cwd, handed.id, seeding.resumePrompt);
    const reasons = turn.ok ? [] : [`${to.id} resume failed: ${turn.detail}`];
    if (to.requestCount() === before) return [...reasons, `${to.id} sent no request to the model on resume`];
    return [...reasons, ...checkSent(to.lastRequest(), seeding.expected)];
  },
};

const real: ModeRunner = {
  seedsStore: true,
  seed: (from, cwd) => seedThroughBinary("real", from, cwd),
  async verify(to, handed, cwd, seeding) {
    const turn = await to.resume(cwd, handed.id, seeding.resumePrompt);
    if (!turn.ok) return [`${to.id} resume failed: ${turn.detail}`];
    return checkRecall(turn.reply, seeding.expected);
  },
};

const structure: ModeRunner = {
  seedsStore: false,
  async seed(from, _cwd, version, work) {
    const path = writeSample(from.id, version, work);
    const expected = sampleSentinels(sessionParts(await harness(from.id).read(path)));
    return { session: path, expected, resumePrompt: "" };
  },
  async verify(to, handed, _cwd, seeding) {
    return checkSent(sessionParts(await harness(to.id).read(handed.path)), seeding.expected);
  },
};

export const MODE_RUNNERS: Record<Mode, ModeRunner> = { full, real, structure };
