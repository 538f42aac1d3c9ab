import type { Command } from "../command.ts";
import { harnessFlag, str } from "../args.ts";
import { brokenStoreLine, listStores } from "../../harnesses/stores.ts";
import { canonicalCwd } from "../../io/paths.ts";
import { err, out, printJson, table } from "../output.ts";

export const list: Command = {
  usage: "session-bridge list [--from H] [--cwd DIR] [--json]",
  help: `  --from H     only this harness's sessions
  --cwd DIR    only sessions recorded in this directory
A store that cannot be read is named on stderr (in --json: brokenStores), the others are still listed, and
the exit code is 1.`,
  options: { from: { type: "string" }, cwd: { type: "string" } },
  async run({ values }, { registry, homes, json }) {
    const from = harnessFlag(values, "from", registry);
    const cwdFilter = str(values, "cwd");
    const cwd = cwdFilter ? canonicalCwd(cwdFilter) : undefined;
    const sources = from ? [from] : registry.harnesses;
    const { sessions, broken } = await listStores(sources, homes);
    const rows = sessions
      .filter((r) => !cwd || r.cwd === cwd)
      .sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""));
    const code = broken.length ? 1 : 0;
    if (json) {
      printJson({ sessions: rows, brokenStores: broken });
      return code;
    }
    for (const b of broken) err(`session-bridge: ${brokenStoreLine(b)}`);
    if (!rows.length) {
      out(broken.length ? "no sessions found in the readable stores" : "no sessions found");
      return code;
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
    return code;
  },
};
