import type { Command } from "../command.ts";
import { harnessFlag } from "../args.ts";
import { harness, implementedHarnesses } from "../../harnesses/index.ts";
import type { DriftEntry } from "../../ir/schema.ts";
import { messageOf } from "../../errors.ts";
import { out, printJson } from "../output.ts";

interface Finding extends Omit<DriftEntry, "examples"> {
  /** Sessions (by id) where it was seen; never their content. */
  sessions: string[];
}

const SHOWN_SESSIONS = 3;

export const drift: Command = {
  name: "drift",
  summary:
    "check every installed store against the embedded schemas and report unknown shapes (exit 1 if any)",
  usage: "session-bridge drift [--from H] [--json]",
  help: `  --from H     only this harness's store
Reads every session read-only and prints record types, fields and columns the embedded schemas do not
describe, per harness and version, without printing any conversation content.`,
  options: { from: { type: "string" } },
  async run({ values }, { homes, json }) {
    const from = harnessFlag(values, "from");
    const findings = new Map<string, Finding>();
    const unreadable: { harness: string; id: string; error: string }[] = [];
    let sessions = 0;
    for (const h of from ? [harness(from)] : implementedHarnesses()) {
      for (const row of await h.list(homes)) {
        sessions++;
        try {
          for (const d of (await h.read(row.path)).drift) {
            const key = [d.harness, d.version, d.where, d.problem].join("\u0000");
            const found = findings.get(key) ??
              {
                harness: d.harness,
                version: d.version,
                where: d.where,
                problem: d.problem,
                count: 0,
                sessions: [],
              };
            found.count += d.count;
            if (found.sessions.length < SHOWN_SESSIONS && !found.sessions.includes(row.id)) {
              found.sessions.push(row.id);
            }
            findings.set(key, found);
          }
        } catch (error) {
          unreadable.push({ harness: h.name, id: row.id, error: messageOf(error) });
        }
      }
    }
    const list = [...findings.values()].sort((a, b) =>
      `${a.harness}${a.where}`.localeCompare(`${b.harness}${b.where}`)
    );
    const clean = !list.length && !unreadable.length;
    if (json) printJson({ sessions, clean, drift: list, unreadable }, true);
    else {
      out(
        `${sessions} sessions checked: ${
          clean ? "no drift" : `${list.length} unknown shapes, ${unreadable.length} unreadable sessions`
        }`,
      );
      for (const f of list) {
        out(
          `  ${f.harness} ${f.version}  ${f.where}: ${f.problem} (x${f.count}; e.g. ${
            f.sessions.join(", ")
          })`,
        );
      }
      for (const u of unreadable) out(`  ${u.harness} ${u.id}: unreadable: ${u.error}`);
    }
    return clean ? 0 : 1;
  },
};
