import type { Command } from "../command.ts";
import { str } from "../args.ts";
import { brokenStoreLine } from "../../harnesses/stores.ts";
import { listSessions } from "../../pipeline/list.ts";
import { err, out, printJson, table } from "../output.ts";

export const list: Command = {
  usage: "session-bridge list [--from H] [--cwd DIR] [--json]",
  help: `  --from H     only this harness's sessions
  --cwd DIR    only sessions recorded in this directory
A store that cannot be read is named on stderr (in --json: brokenStores), the others are still listed, and
the exit code is 1.`,
  options: { from: { type: "string" }, cwd: { type: "string" } },
  async run({ values }, { registry, homes, json }) {
    const [from, cwd] = [str(values, "from"), str(values, "cwd")];
    const { sessions: rows, broken } = await listSessions({
      registry,
      homes,
      ...(from !== undefined ? { from } : {}),
      ...(cwd ? { cwd } : {}),
    });
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
