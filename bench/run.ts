/**
 * Benchmark: builds a large synthetic Claude Code session from real fixture records, then measures reading it,
 * converting it to each harness (rendered to a file) and handing it off to each (into a fresh store), each in
 * its own process so peak memory is that phase's alone; first, start-up of the compiled binary (bench/startup.ts).
 * Usage: npm run build && npm run bench -- [size-in-MB, default 70]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { BUILTIN_HARNESSES, builtinRegistry, type HarnessName } from "../lib/harnesses/registry.ts";
import { prepareConversion } from "../lib/pipeline/prepare.ts";
import { convertSession } from "../lib/pipeline/convert.ts";
import { createCodexStore } from "../lib/demo/codex-store.ts";
import { createHermesStore } from "../lib/demo/hermes-store.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { benchStartup } from "./startup.ts";

const FIXTURE = fileURLToPath(
  new URL("../fixtures/claude-code/2.1.328/thinking-tool-use.jsonl", import.meta.url),
);
type Json = Record<string, unknown>;

/** One user -> assistant(thinking, tool_use) -> user(tool_result) -> assistant(text) turn per loop, chained. */
function generate(path: string, megabytes: number): number {
  const records = readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Json);
  const turn = records.filter((r) => r.type === "user" || r.type === "assistant");
  const filler = "The quick brown fox refactors the parser module and re-runs the suite. ".repeat(20);
  const target = megabytes * 1024 * 1024;
  const out: string[] = [];
  let size = 0;
  let parent: string | null = null;
  let count = 0;
  const start = Date.parse("2026-01-01T00:00:00Z");
  while (size < target) {
    for (const template of turn) {
      const uuid = randomUUID();
      const record: Json = structuredClone(template);
      record.uuid = uuid;
      record.parentUuid = parent;
      record.timestamp = new Date(start + count * 1000).toISOString();
      const message = record.message as { content: unknown };
      if (typeof message.content === "string") message.content = `${message.content} ${filler}`;
      else if (Array.isArray(message.content)) {
        for (const block of message.content as Json[]) {
          if (typeof block.text === "string") block.text = `${block.text} ${filler}`;
        }
      }
      const line = JSON.stringify(record);
      out.push(line);
      size += line.length + 1;
      parent = uuid;
      count++;
      if (out.length >= 1000) {
        writeFileSync(path, `${out.join("\n")}\n`, { flag: "a" });
        out.length = 0;
      }
    }
  }
  if (out.length) writeFileSync(path, `${out.join("\n")}\n`, { flag: "a" });
  return count;
}

/** A phase is `read`, or `convert:<harness>` / `handoff:<harness>` of the generated Claude Code session. */
async function phase(name: string, file: string, work: string): Promise<void> {
  const now = new Date();
  const started = performance.now();
  const session = await readClaudeSession(file);
  const [step, to] = name.split(":") as [string, HarnessName | undefined];
  if (to) {
    const target = BUILTIN_HARNESSES[to];
    const homes = {
      "claude-code": join(work, "claude"),
      codex: join(work, "codex"),
      hermes: join(work, "hermes"),
    };
    const cwd = join(work, "target");
    mkdirSync(cwd);
    if (step === "convert") {
      const request = { registry: builtinRegistry, cwd, handshake: true, stubOpenCalls: false, now };
      await convertSession(
        session,
        target,
        request,
        { path: join(work, "out.jsonl"), replace: false },
        join(work, "bridge"),
      );
    } else {
      createCodexStore(homes.codex);
      createHermesStore(homes.hermes);
      const { session: prepared, options } = await prepareConversion(session, target, {
        registry: builtinRegistry,
        cwd,
        handshake: true,
        stubOpenCalls: false,
        now,
        home: homes[to],
      });
      const plan = await target.plan(prepared, options, homes[to], false);
      await plan.commit({ force: false, backup: true, now, bridgeHome: join(work, "bridge") });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, maxRssKiB: process.resourceUsage().maxRSS }));
}

const PHASES = [
  "read",
  ...["claude-code", "codex", "hermes"].flatMap((h) => [`convert:${h}`, `handoff:${h}`]),
];

async function main() {
  const [mode, name, file, work] = process.argv.slice(2);
  if (mode === "--phase") return await phase(name!, file!, work!);
  const megabytes = Number(process.argv[2] ?? 70);
  const dir = mkdtempSync(join(tmpdir(), "sb-bench-"));
  try {
    benchStartup(dir);
    const file = join(dir, `${randomUUID()}.jsonl`);
    const t0 = performance.now();
    const records = generate(file, megabytes);
    const bytes = statSync(file).size;
    console.log(
      `session: ${(bytes / 1048576).toFixed(1)} MB, ${records} records (generated in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s)`,
    );
    console.log("phase                 seconds  MB/s    peak RSS");
    for (const name of PHASES) {
      const work = join(dir, name.replace(":", "-"));
      mkdirSync(work);
      const [bin, ...pre] = scriptArgv(fileURLToPath(import.meta.url));
      const r = spawnSync(bin!, [...pre, "--phase", name, file, work], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
      const m = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { seconds: number; maxRssKiB: number };
      const mbps = bytes / 1048576 / m.seconds;
      console.log(
        `${name.padEnd(20)} ${m.seconds.toFixed(2).padStart(7)}  ${mbps.toFixed(0).padStart(5)}  ${
          (m.maxRssKiB / 1024).toFixed(0)
        } MB`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
