/**
 * Objects made per record (issue 34: "measure objects allocated per record"): the bench's Claude Code session
 * (bench/session.ts) read with the real reader, then prepared and rendered into a target (the headline's,
 * Codex, unless named) with the real writer, no fitting. Each step runs twice first, so the JIT has settled,
 * then once more counted: JavaScriptCore's heap cells by type (Bun's heapStats, from bun:jsc) before and after,
 * with the collector off (BUN_JSC_useGC=0; the script starts itself again with it), so every cell made stays
 * counted. Prints the cells per record read, and per record rendered, by type.
 *
 *   npx bun bench/record-objects.ts [--megabytes 10] [--to codex]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateClaudeSession } from "./session.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { LONG_WORK_OPTIONS } from "../lib/runtime.ts";

type Counts = Record<string, number>;
interface Jsc {
  heapStats(): { objectTypeCounts: Counts };
}

const { values } = parseArgs({
  options: { megabytes: { type: "string", default: "10" }, to: { type: "string", default: "codex" } },
});

if (process.env.BUN_JSC_useGC !== "0") {
  // The collector is off only for a process started so; the JIT as the binary converts (LONG_WORK_OPTIONS).
  const env = { ...process.env, ...LONG_WORK_OPTIONS, BUN_JSC_useGC: "0" };
  const run = spawnSync(process.execPath, process.argv.slice(1), { env, stdio: "inherit" });
  process.exit(run.status ?? 1);
}

// Named through a variable: bun:jsc is Bun's alone, and the type checker knows no module by that name.
const JSC_MODULE = "bun:jsc";
const jsc = (await import(JSC_MODULE)) as Jsc;

/** Heap cells made per record by the third of three runs of `step`, by type, most first. */
async function cellsPerRecord(step: () => Promise<unknown>, records: number): Promise<[string, number][]> {
  await step();
  await step();
  const before = jsc.heapStats().objectTypeCounts;
  await step();
  const after = jsc.heapStats().objectTypeCounts;
  return Object.keys(after)
    .map((type): [string, number] => [type, (after[type]! - (before[type] ?? 0)) / records])
    .filter(([, n]) => n >= 0.01)
    .sort((a, b) => b[1] - a[1]);
}

function print(what: string, cells: [string, number][]): void {
  const total = cells.reduce((sum, [, n]) => sum + n, 0);
  console.log(`${what}: ${total.toFixed(2)} objects per record`);
  for (const [type, n] of cells) console.log(`  ${n.toFixed(2).padStart(7)} ${type}`);
}

const dir = mkdtempSync(join(tmpdir(), "sb-record-objects-"));
try {
  const path = join(dir, "session.jsonl");
  const { records } = generateClaudeSession(path, Number(values.megabytes));
  console.log(`${records} records (${values.megabytes} MB)`);
  print("read (Claude Code)", await cellsPerRecord(() => readClaudeSession(path), records));

  const target = builtinRegistry.harnesses.find((h) => h.name === values.to);
  if (!target) throw new Error(`no harness ${values.to}`);
  const now = new Date("2027-01-01T00:00:00Z");
  const prepared = await prepareConversion(await readClaudeSession(path), target, {
    registry: builtinRegistry,
    handshake: true,
    now,
    fit: "off",
  });
  // Held first, so what is counted is the writer's work alone, not the preparing passes it pulls on.
  const session = await holdSession(prepared.session);
  const render = async () => {
    for await (const _ of target.store.render(session, prepared.options)) continue;
  };
  print(`rendered (${target.name})`, await cellsPerRecord(render, records));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
