/**
 * Issue 34's Hermes row alone, for builds side by side: the handoff of one generated Claude Code session into an
 * emptied Hermes 0.19.0 store by each binary given, in turn, each followed by its floor (bench/hermes-floor.ts,
 * the move alone), so every ratio is taken under the load of its own moment: for weighing a change to the
 * handoff's write (its worker thread: lib/harnesses/hermes/insert.ts) against the build before it.
 * Usage: bun bench/hermes-overlap/run.ts --binary PATH [--binary PATH]... [--runs 3] [--megabytes 70]
 *        (under `nice -n 19` on a shared machine; the session is written to a temp folder and removed)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { measure, type Measured } from "../measure.ts";
import { emptyHermesHome } from "../hermes-floor.ts";
import { generateClaudeSession } from "../session.ts";
import { hermes } from "../../lib/harnesses/hermes/index.ts";

const FLOOR = fileURLToPath(new URL("../hermes-floor.ts", import.meta.url));

const { values } = parseArgs({
  options: {
    binary: { type: "string", multiple: true },
    runs: { type: "string", default: "3" },
    megabytes: { type: "string", default: "70" },
  },
});
const binaries = values.binary ?? [];
if (!binaries.length) {
  throw new Error("usage: run.ts --binary PATH [--binary PATH]... [--runs N] [--megabytes M]");
}

const root = mkdtempSync(join(tmpdir(), "sb-hermes-overlap-"));
const figures = (m: Measured) =>
  `${m.seconds.toFixed(2)} s (${m.cpuSeconds.toFixed(2)} cpu, ${(m.peakRssBytes / 2 ** 20).toFixed(0)} MB)`;

try {
  const source = join(root, "session.jsonl");
  generateClaudeSession(source, Number(values.megabytes));
  for (let run = 1; run <= Number(values.runs); run++) {
    for (const [i, binary] of binaries.entries()) {
      const dir = join(root, `${run}-${i}`);
      emptyHermesHome(join(dir, "hermes"));
      const env = {
        ...process.env,
        HOME: join(dir, "home"),
        [hermes.home.env]: join(dir, "hermes"),
        SESSION_BRIDGE_HOME: join(dir, "bridge"),
      };
      const handoff = measure([binary, "handoff", source, "--to", "hermes", "--cwd", dir, "--json"], { env });
      const floor = measure([
        process.execPath,
        FLOOR,
        emptyHermesHome(join(dir, "floor")),
        join(dir, "hermes", "state.db"),
      ]);
      console.log(
        `run ${run} ${binary}: handoff ${figures(handoff)}, floor ${figures(floor)}: wall ${
          (handoff.seconds / floor.seconds).toFixed(2)
        }x, cpu ${(handoff.cpuSeconds / floor.cpuSeconds).toFixed(2)}x (load ${loadavg()[0]!.toFixed(1)})`,
      );
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
