import type { Command } from "../command.ts";
import { flag, str } from "../args.ts";
import { brokenStoreLine, storeLocations } from "../../harnesses/stores.ts";
import { findHarness } from "../../harnesses/registry.ts";
import { listSessions } from "../../pipeline/list.ts";
import { err, localMinute, out, printJson, table } from "../output.ts";

export const list: Command = {
  usage: "session-bridge list [--from H] [--cwd DIR] [--full-ids] [--json]",
  help: `  --from H     only this harness's sessions
  --cwd DIR    only sessions recorded in this directory
  --full-ids   show whole ids (default: each id's shortest unique prefix, which any <session> takes;
               --json has both)
A store that cannot be read is named on stderr (in --json: brokenStores), the others are still listed, and
the exit code is 1.`,
  arguments: [],
  options: { from: { type: "string" }, cwd: { type: "string" }, "full-ids": { type: "boolean" } },
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
      const looked = from === undefined ? registry.harnesses : [findHarness(registry, from)];
      const where = `looked in ${storeLocations(looked, homes)}`;
      const filter = cwd ? ` recorded in ${cwd}` : "";
      out(`no sessions found${filter}${broken.length ? " in the readable stores" : ""} (${where})`);
      return code;
    }
    const lines = [["HARNESS", "ID", "UPDATED", "CWD", "TITLE"]];
    for (const r of rows) {
      lines.push([
        r.harness,
        flag(values, "full-ids") ? r.id : r.prefix,
        localMinute(r.updatedAt),
        r.cwd ?? "",
        r.title ?? "",
      ]);
    }
    for (const l of table(lines)) out(l);
    return code;
  },
};
