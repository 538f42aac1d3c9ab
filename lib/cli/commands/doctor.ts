import type { Command } from "../command.ts";
import { doctor as examine } from "../../pipeline/doctor.ts";
import { positionals } from "../args.ts";

export const doctor: Command = {
  usage: "session-bridge doctor [--json]",
  help: `For each harness: its binary on PATH and the version it reports, its home, whether its store can be
read, and drift (as \`drift\` reports it); for session-bridge's own home: the undo ledger, the backups and
their size, and handoffs a crash interrupted. Every problem comes with what to do about it. Reads only:
nothing is changed. Exit 1 when something needs attention.`,
  arguments: [],
  options: {},
  async run(parsed, { registry, homes, bridgeHome, env, now, json, output }) {
    const { out, printJson } = output;
    positionals(parsed, []);
    const report = await examine({ registry, homes, bridgeHome, env, now });
    if (json) {
      printJson({ ...report }, report.problems === 0);
      return report.problems ? 1 : 0;
    }
    const subjects = [
      ...report.harnesses.map((h) => ({ name: h.name, heading: `${h.title} (${h.name})` })),
      { name: "session-bridge", heading: `session-bridge home ${report.bridgeHome.path}` },
    ];
    for (const { name, heading } of subjects) {
      out(heading);
      for (const c of report.checks.filter((c) => c.subject === name)) {
        out(`  ${c.status.padEnd(8)}${c.check.padEnd(12)}${c.detail}`);
        if (c.fix) out(`  ${"".padEnd(20)}fix: ${c.fix}`);
      }
    }
    out(
      report.problems
        ? `${report.problems} problem${report.problems === 1 ? " needs" : "s need"} attention`
        : "nothing needs attention",
    );
    return report.problems ? 1 : 0;
  },
};
