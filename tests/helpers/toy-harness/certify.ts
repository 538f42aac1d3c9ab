/**
 * The toy's certify driver: it has no binary to seed a session or resume one, so it takes part in
 * structure-only certify only, where a pair is seeded from its captured sample and what a handoff wrote is
 * read back. Listed means what the toy's own listing shows: the session, in its cwd.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { HarnessDriver } from "../../../lib/certify-kit/driver.ts";
import { TOY } from "./codec.ts";
import { listToy, sessionsDir } from "./store.ts";
import { CAPTURED } from "./material.ts";

/** What the toy cannot do without a binary: any mode but structure asks for it. */
const noBinary = (): Promise<never> =>
  Promise.reject(new Error("the toy has no binary to run: it takes part in --structure-only certify only"));

const SAMPLE = join(CAPTURED, "1.0.0", "thinking-tool-use.jsonl");

export const toyDriver: HarnessDriver = {
  id: TOY,
  command: TOY,
  open({ work, mode }) {
    if (mode !== "structure") return noBinary();
    const home = join(work, "toy-home");
    return Promise.resolve({
      id: TOY,
      homes: () => ({ [TOY]: home }),
      warmUp: () => Promise.resolve(void mkdirSync(sessionsDir(home), { recursive: true })),
      seed: noBinary,
      seedInteractive: noBinary,
      seedInterrupted: noBinary,
      resume: noBinary,
      requestCount: () => 0,
      lastRequest: () => [],
      listed: async (id, cwd) => (await listToy(home)).some((s) => s.id === id && s.cwd === cwd),
      sample: () => ({
        source: basename(SAMPLE),
        lines: readFileSync(SAMPLE, "utf8").split("\n").filter((l) => l.trim()),
      }),
      close: () => Promise.resolve(),
    });
  },
};
