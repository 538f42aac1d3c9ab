/**
 * What each mutant is put through, in-process through the public library (lib/mod.ts): every harness's listing
 * of the mutant's world, `load` of the staged file and of every session the listings found, `inspection` of
 * what loads, and a conversion of it to every registered harness (and to Codex once more with its thread
 * streamed). Whatever is thrown is judged as the CLI would
 * show it: only the project's own errors, with exit codes 0, 1 or 2, one line naming a file, are answers.
 */
import { join, relative } from "node:path";
import * as api from "../../lib/mod.ts";
import { exitCodeFor } from "../../lib/errors.ts";
import { DEFAULT_READ_LIMITS } from "../../lib/io/jsonl.ts";
import type { Staged } from "./stage.ts";

export interface Finding {
  /** What was being done: `list codex`, `load claude/projects/.../x.jsonl`, `convert to hermes`. */
  step: string;
  problem: string;
}

/** How many listed sessions are loaded besides the staged file (a damaged store may list many). */
const LISTED_LOADS = 3;
const NOW = new Date("2026-12-01T00:00:00Z");

/** What a mutant met: the crashes, and how far it got (a campaign where nothing loads proves little). */
export interface Exercised {
  findings: Finding[];
  /** Sessions that loaded. */
  loaded: number;
  /** Conversions written. */
  converted: number;
}

export async function exercise(staged: Staged, registry: api.Registry): Promise<Exercised> {
  const findings: Finding[] = [];
  let loaded = 0;
  let converted = 0;
  const where = { registry, homes: staged.homes, bridgeHome: staged.bridgeHome };
  async function step<T>(name: string, run: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      const problem = problemWith(error, staged.root);
      if (problem) findings.push({ step: name, problem });
      return undefined;
    }
  }

  const refs = [...staged.refs];
  for (const harness of registry.harnesses) {
    const home = staged.homes[harness.name] ?? join(staged.root, harness.name);
    const listed = await step(`list ${harness.name}`, () => harness.store.list(home));
    for (const s of (listed ?? []).slice(0, LISTED_LOADS)) if (!refs.includes(s.path)) refs.push(s.path);
  }
  for (const ref of refs) {
    const read = await step(`load ${relative(staged.root, ref)}`, () => api.load({ ...where, ref }));
    if (!read) continue;
    loaded++;
    await step("inspect", () => api.inspection(read.session));
    for (const target of registry.harnesses) {
      const written = await step(`convert to ${target.name}`, () =>
        api.convert({
          ...where,
          source: { session: read.session },
          to: target.name,
          output: join(staged.output, `${target.name}-${refs.indexOf(ref)}`),
          force: true,
          now: NOW,
          // What the refusal of a session without one asks for, as a user would give it.
          ...(read.session.meta.cwd ? {} : { cwd: "/home/user/project" }),
        }));
      if (written) converted++;
    }
    // The same session read streamed (its thread read again from the file on each pass), as a large one is.
    {
      const written = await step("convert streamed to codex", () =>
        api.convert({
          ...where,
          limits: { ...DEFAULT_READ_LIMITS, streamFromBytes: 0 },
          source: { ref },
          to: "codex",
          output: join(staged.output, `streamed-${refs.indexOf(ref)}`),
          force: true,
          now: NOW,
          ...(read.session.meta.cwd ? {} : { cwd: "/home/user/project" }),
        }));
      if (written) converted++;
    }
  }
  return { findings, loaded, converted };
}

/**
 * Why an error is a crash, or undefined when it is an answer: the project's InputError or RefusedError, with an
 * exit code the CLI documents, a one-line message that names the file (every file of a mutant's world is
 * under `root`).
 */
export function problemWith(error: unknown, root: string): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n")[0]!.slice(0, 300);
  if (!(error instanceof api.InputError || error instanceof api.RefusedError)) {
    const name = error instanceof Error ? error.constructor.name : typeof error;
    return `uncaught ${name}: ${first}`;
  }
  const code = exitCodeFor(error);
  if (![0, 1, 2].includes(code)) return `exit code ${code}: ${first}`;
  const lines = message.split("\n").length;
  if (lines > 1) return `a message of ${lines} lines: ${first}`;
  if (!message.includes(root)) return `no file named: ${first}`;
  return undefined;
}
