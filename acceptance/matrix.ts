/**
 * The live acceptance matrix: for each (source, target) pair, seed a sentinel session in the source through its
 * real binary, hand it to the target with the session-bridge CLI, resume it with the target's real binary,
 * and pass only when the target's request to the model carries the user sentinel as user words, the
 * assistant sentinel as assistant words and the tool sentinel as a tool call and its output, and the
 * target's own listing shows the session.
 *
 * Usage: npx bun acceptance/matrix.ts [--pairs claude-code:claude-code,...] [--binary dist/session-bridge] [--json]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { scriptArgv } from "../lib/runtime.ts";
import type { HarnessFactory, HarnessId, HarnessUnderTest, SentMessage } from "./matrix/types.ts";
import { claudeCodeUnderTest } from "./matrix/claude-code.ts";
import { codexUnderTest } from "./matrix/codex.ts";
import { hermesUnderTest } from "./matrix/hermes.ts";

/** Harnesses the matrix can drive; a pair is run when both ends are here. */
export const HARNESSES: Partial<Record<HarnessId, HarnessFactory>> = {
  "claude-code": claudeCodeUnderTest,
  codex: codexUnderTest,
  hermes: hermesUnderTest,
};

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

export interface PairResult {
  source: HarnessId;
  target: HarnessId;
  ok: boolean;
  reasons: string[];
  seconds: number;
}

function bridge(args: string[], binary: string | undefined) {
  const [bin, ...pre] = binary ? [binary] : scriptArgv(MAIN);
  const r = spawnSync(bin!, [...pre, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const has = (messages: SentMessage[], role: SentMessage["role"], needle: string) =>
  messages.some((m) => m.role === role && m.text.includes(needle));

export async function runPair(source: HarnessId, target: HarnessId, binary?: string): Promise<PairResult> {
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), `sb-matrix-${source}-${target}-`));
  const reasons: string[] = [];
  const opened: HarnessUnderTest[] = [];
  try {
    const from = await HARNESSES[source]!(join(work, "source"));
    opened.push(from);
    const to = source === target ? from : await HARNESSES[target]!(join(work, "target"));
    if (to !== from) opened.push(to);
    const sourceCwd = join(work, "source-project");
    const targetCwd = join(work, "target project");
    mkdirSync(sourceCwd, { recursive: true });
    mkdirSync(targetCwd, { recursive: true });
    const tag = Math.random().toString(16).slice(2, 8);
    const sentinels = { user: `user-sentinel-${tag}`, tool: `tool-sentinel-${tag}` };
    const seeded = await from.seed(realpathSync(sourceCwd), sentinels);

    const flags = [...new Set([...from.homeFlags(), ...to.homeFlags()])];
    const handoff = bridge([
      "handoff",
      seeded.id,
      "--from",
      source,
      "--to",
      target,
      "--cwd",
      targetCwd,
      ...flags,
      "--json",
    ], binary);
    if (handoff.code !== 0) {
      throw new Error(`handoff failed (exit ${handoff.code}): ${handoff.stderr.trim()}`);
    }
    const targetId = (JSON.parse(handoff.stdout) as { target: { id: string } }).target.id;

    if (!(await to.listed(targetId, realpathSync(targetCwd)))) {
      reasons.push("the target's own listing does not show the session");
    }
    const resumed = await to.resume(realpathSync(targetCwd), targetId, "Please continue where we left off.");
    if (!resumed.ok) reasons.push(`resume failed: ${resumed.detail}`);
    const sent = to.lastRequest();
    if (!has(sent, "user", sentinels.user)) {
      reasons.push(`user sentinel ${sentinels.user} not sent as user words`);
    }
    if (!has(sent, "assistant", seeded.assistant)) {
      reasons.push(`assistant sentinel "${seeded.assistant}" not sent as assistant words`);
    }
    if (!has(sent, "assistant", sentinels.tool)) {
      reasons.push(`tool sentinel ${sentinels.tool} not sent as an assistant tool call`);
    }
    if (!has(sent, "tool", sentinels.tool)) {
      reasons.push(`tool sentinel ${sentinels.tool} not sent as a tool output`);
    }
  } catch (error) {
    reasons.push(error instanceof Error ? error.message : String(error));
  } finally {
    for (const h of opened) await h.close();
    rmSync(work, { recursive: true, force: true });
  }
  return { source, target, ok: reasons.length === 0, reasons, seconds: (performance.now() - started) / 1000 };
}

function allPairs(): [HarnessId, HarnessId][] {
  const ids = Object.keys(HARNESSES) as HarnessId[];
  return ids.flatMap((s) => ids.map((t): [HarnessId, HarnessId] => [s, t]));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { pairs: { type: "string" }, binary: { type: "string" }, json: { type: "boolean" } },
  });
  const pairs = values.pairs
    ? values.pairs.split(",").map((p) => p.split(":") as [HarnessId, HarnessId])
    : allPairs();
  for (const [s, t] of pairs) {
    if (!HARNESSES[s] || !HARNESSES[t]) throw new Error(`no harness under test for pair ${s}:${t}`);
  }
  const binary = values.binary ? realpathSync(values.binary) : undefined;
  const results: PairResult[] = [];
  for (const [s, t] of pairs) {
    if (!values.json) process.stdout.write(`${s} -> ${t} ... `);
    const r = await runPair(s, t, binary);
    results.push(r);
    if (!values.json) {
      console.log(
        `${r.ok ? "PASS" : "FAIL"} (${r.seconds.toFixed(1)} s)${
          r.ok ? "" : `\n    ${r.reasons.join("\n    ")}`
        }`,
      );
    }
  }
  const failed = results.filter((r) => !r.ok).length;
  if (values.json) {
    console.log(
      JSON.stringify({ schema: "session-bridge/acceptance/1", ok: failed === 0, results }, null, 2),
    );
  } else console.log(`${results.length - failed} of ${results.length} pairs passed`);
  return failed ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main();
