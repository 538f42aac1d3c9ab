/** What the campaign prints: one block per crashing mutant, with the command that replays it, and the summary. */
import { terminalText } from "../../lib/io/control-characters.ts";
import type { MutantResult } from "./campaign.ts";

export interface ReportContext {
  seed: number;
  /** The fixture filter the campaign ran with (a replay needs it to pick the same fixture). */
  fixture?: string;
}

/** A crash, escaped for a terminal: its messages quote mutated session bytes. */
export function crashReport(result: MutantResult, context: ReportContext): string {
  const fixture = context.fixture ? ` --fixture ${JSON.stringify(context.fixture)}` : "";
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
