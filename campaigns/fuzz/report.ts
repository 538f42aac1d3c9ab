/** What the campaign prints: one block per crashing mutant, with the command that replays it, and the summary. */
import { terminalText } from "../../lib/io/control-characters.ts";
import type { MutantResult } from "./campaign.ts";
import { type LongRunResult, MIB } from "./long-run-campaign.ts";

export interface ReportContext {
  seed: number;
  /** The fixture filter the campaign ran with (a replay needs it to pick the same fixture). */
  fixture?: string;
  /** The harness modules the campaign ran with (a replay needs them for the same catalog). */
  harnessModules?: readonly string[];
}

/** A crash, escaped for a terminal: its messages quote mutated session bytes. */
export function crashReport(result: MutantResult, context: ReportContext): string {
  const fixture = [
    ...(context.fixture ? [` --fixture ${JSON.stringify(context.fixture)}`] : []),
    ...(context.harnessModules ?? []).map((m) => ` --harness-module ${JSON.stringify(m)}`),
  ].join("");
  return terminalText([
    `crash: seed ${context.seed} mutant ${result.index}: fixtures/${result.fixture ?? "?"}: ${
      result.mutation ?? "?"
    }`,
    ...result.findings.map((f) => `  ${f.step}: ${f.problem}`),
    ...(result.saved ? [`  saved: ${result.saved}`] : []),
    `  replay: npm run fuzz -- --seed ${context.seed} --only ${result.index}${fixture} --save fuzz-mutants`,
  ].join("\n"));
}

export function summaryLine(results: readonly MutantResult[], seed: number): string {
  const crashes = results.filter((r) => r.findings.length).length;
  return `${results.length} mutants, ${crashes} crashes (seed ${seed})`;
}

/**
 * Crashes grouped by what went wrong (the step's verb and the problem with quoted values and numbers blanked),
 * most frequent first: one line per kind, so a red run says at a glance which bugs it found.
 */
export function crashKinds(results: readonly MutantResult[]): string[] {
  const counts = new Map<string, number>();
  for (const r of results) {
    for (const f of r.findings) {
      const kind = `${f.step.split(" ")[0]}: ${f.problem}`.replace(/"[^"]*"/g, '"…"').replace(
        /\/\S+/g,
        "<path>",
      )
        .replace(/\d+/g, "N");
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([kind, n]) =>
    terminalText(`${String(n).padStart(6)}  ${kind}`)
  );
}

/** The options a long-run case's replay needs besides its index (its size is drawn within these bytes). */
export interface LongRunContext extends ReportContext {
  maxMib: number;
}

/** A failing long-run case: what it placed where, each command that crashed or was stopped, its replay. */
export function longRunReport(result: LongRunResult, context: LongRunContext): string {
  const fixture = [
    ...(context.fixture ? [` --fixture ${JSON.stringify(context.fixture)}`] : []),
    ...(context.harnessModules ?? []).map((m) => ` --harness-module ${JSON.stringify(m)}`),
  ].join("");
  return terminalText([
    `long run: seed ${context.seed} case ${result.index}: fixtures/${
      result.fixture ?? "?"
    }: ${result.description}`,
    ...result.findings.map((f) => `  ${f.step}: ${f.problem}`),
    `  replay: npm run fuzz -- --seed ${context.seed} --only-long ${result.index} --long-run-mib ${context.maxMib}${fixture}`,
  ].join("\n"));
}

/**
 * One line per read command over every long-run case: how many were slow or crashed, and its slowest hostile
 * run against the ordinary text of the same case, in seconds per MiB.
 */
export function longRunTable(results: readonly LongRunResult[]): string[] {
  const commands = [...new Set(results.flatMap((r) => r.timings.map((t) => t.command)))];
  const width = Math.max(0, ...commands.map((c) => c.length));
  return commands.map((command) => {
    const failed = results.filter((r) => r.findings.some((f) => f.step === command)).length;
    const timed = results.flatMap((r) =>
      r.timings.filter((t) => t.command === command).map((t) => ({ ...t, mib: r.bytes / MIB }))
    );
    const worst = timed.reduce((a, b) => (b.hostileSeconds / b.mib > a.hostileSeconds / a.mib ? b : a));
    const perMib = (seconds: number) => (seconds / worst.mib).toFixed(2);
    return `  ${command.padEnd(width)}  ${failed} of ${timed.length} slow or crashed; slowest ${
      perMib(worst.hostileSeconds)
    }${worst.stopped ? "+" : ""} s/MiB against ${perMib(worst.ordinarySeconds)} s/MiB on ordinary text`;
  });
}

export function longRunSummaryLine(results: readonly LongRunResult[], seed: number): string {
  const failed = results.filter((r) => r.findings.length).length;
  const timed = results.filter((r) => r.timings.length).length;
  return `${results.length} long runs (${timed} timed), ${failed} slow or crashed (seed ${seed})`;
}
