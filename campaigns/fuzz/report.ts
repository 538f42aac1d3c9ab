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
