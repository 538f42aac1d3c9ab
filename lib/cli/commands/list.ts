import type { Command } from "../command.ts";
import { harnessFlag, str } from "../args.ts";
import { harness, implementedHarnesses } from "../../harnesses/index.ts";
import { canonicalCwd } from "../../io/paths.ts";
import { out, printJson, table } from "../output.ts";

export const list: Command = {
  name: "list",
  summary: "list sessions across the harness stores",
  usage: "session-bridge list [--from H] [--cwd DIR] [--json]",
  help: `  --from H     only this harness's sessions
  --cwd DIR    only sessions recorded in this directory`,
  options: { from: { type: "string" }, cwd: { type: "string" } },
  async run({ values }, { homes, json }) {
    const from = harnessFlag(values, "from");
    const cwdFilter = str(values, "cwd");
    const cwd = cwdFilter ? canonicalCwd(cwdFilter) : undefined;
    const sources = from ? [harness(from)] : implementedHarnesses();
    const rows = (await Promise.all(sources.map((h) => h.list(homes))))
      .flat()
      .filter((r) => !cwd || r.cwd === cwd)
      .sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""));
    if (json) {
      printJson({ sessions: rows });
      return 0;
    }
    if (!rows.length) {
      out("no sessions found");
      return 0;
    }
    const lines = [["HARNESS", "ID", "UPDATED", "CWD", "TITLE"]];
    for (const r of rows) {
      lines.push([
        r.harness,
        r.id,
        (r.updatedAt ?? "").slice(0, 16).replace("T", " "),
        r.cwd ?? "",
        r.title ?? "",
      ]);
    }
    for (const l of table(lines)) out(l);
    return 0;
  },
};
