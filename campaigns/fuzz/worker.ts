/**
 * One campaign worker: stages, mutates and exercises the mutants it is sent, one at a time, and answers each.
 * The campaign runs it in a worker thread so its watchdog can stop a mutant that hangs, even in a loop that
 * never yields.
 */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { builtinRegistry, type Registry } from "../../lib/mod.ts";
import { coverage, loadHarnessModule } from "../../tests/helpers/harness-material.ts";
import { fixtureCatalog } from "./catalog.ts";
import { exercise, type Exercised } from "./exercise.ts";
import { mutateFile } from "./mutate.ts";
import { mutantRandom } from "./random.ts";
import { stage } from "./stage.ts";

export interface WorkerSetup {
  seed: number;
  /** Only fixtures whose name contains this. */
  fixture?: string;
  /** A module exporting `registry` to use instead of the built-in harnesses (tests plant readers this way). */
  registryModule?: string;
  /** Harness modules (`harness` and `material`) whose harnesses join the registry, their fixtures the catalog. */
  harnessModules?: readonly string[];
  /** Where a copy of each mutant is saved, if anywhere. */
  saveDir?: string;
  /** This worker's scratch folder. */
  scratch: string;
}

export type WorkerMessage =
  | { type: "ready" }
  | { type: "mutated"; index: number; fixture: string; mutation: string; saved?: string }
  | { type: "done"; index: number } & Exercised;

const setup = workerData as WorkerSetup;
const port = parentPort!;
const { registry, covered } = await coverage(
  setup.registryModule
    ? ((await import(setup.registryModule)) as { registry: Registry }).registry
    : builtinRegistry,
  await Promise.all((setup.harnessModules ?? []).map(loadHarnessModule)),
);
const catalog = fixtureCatalog(covered, setup.fixture);

port.on("message", async (index: number) => {
  const root = join(setup.scratch, `mutant-${index}`);
  let exercised: Exercised;
  try {
    const random = mutantRandom(setup.seed, index);
    const fixture = random.pick(catalog);
    const staged = stage(fixture, root, covered);
    const mutation = mutateFile(staged.target, staged.kind, random);
    let saved: string | undefined;
    if (setup.saveDir) {
      mkdirSync(setup.saveDir, { recursive: true });
      saved = join(setup.saveDir, `seed-${setup.seed}-mutant-${index}-${basename(staged.target)}`);
      copyFileSync(staged.target, saved);
    }
    post({ type: "mutated", index, fixture: fixture.name, mutation, ...(saved ? { saved } : {}) });
    exercised = await exercise(staged, registry);
  } catch (error) {
    const problem = `the campaign itself failed: ${String(error)}`;
    exercised = { findings: [{ step: "campaign", problem }], loaded: 0, converted: 0 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  post({ type: "done", index, ...exercised });
});
post({ type: "ready" });

function post(message: WorkerMessage): void {
  port.postMessage(message);
}
