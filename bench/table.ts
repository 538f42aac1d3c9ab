/** The bench's one table: a row per goal of issues 12 and 34, side by side, or the same rows as JSON. */
import { cpus } from "node:os";

export interface Row {
  work: string;
  ours: string;
  reference: string;
  ratio: string;
  peakRss?: string;
  goal: string;
  /** null: not measured in this run (the line says why), or a figure with no goal of its own. */
  met: boolean | null;
  /** Why a row is not measured (shown in the ours column). */
  note?: string;
  /** The raw numbers behind the row, for `--json`. */
  figures: Record<string, number>;
}

export interface Machine {
  json: boolean;
  /** 1-minute load average when the run started and when it ended. */
  load: number;
  loadAfter: number;
}

export function printTable(rows: Row[], machine: Machine): void {
  const context = { cores: cpus().length, loadAtStart: machine.load, loadAtEnd: machine.loadAfter };
  if (machine.json) {
    console.log(JSON.stringify({ machine: context, rows }, null, 2));
    return;
  }
  const header = ["work", "ours", "reference", "ratio", "peak RSS", "goal", "met?"];
  const cells = rows.map((r) => [
    r.work,
    r.note ?? r.ours,
    r.reference,
    r.ratio,
    r.peakRss ?? "-",
    r.goal,
    r.met === null ? "n/a" : r.met ? "yes" : "NO",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  console.log(
    `${context.cores} cores, load ${machine.load.toFixed(2)} at start, ${
      machine.loadAfter.toFixed(2)
    } at end; times are wall (CPU); a floor's ratio is given in both, its goal is on wall time (two threads`,
  );
  console.log(
    "shorten the wall, not the CPU), and is the median of the ratios of runs made in turn with the floor's",
  );
  console.log(
    "(each row's times: its median run); the other ratios and goals use CPU time (start-up: medians of wall time)",
  );
  console.log(line(header));
  for (const c of cells) console.log(line(c));
  const unmet = rows.filter((r) => r.met === false).length;
  console.log(`${rows.length - unmet} of ${rows.length} goals met`);
}
