import type { Command } from "../command.ts";
import { InputError } from "../../errors.ts";
import { flag, str } from "../args.ts";
import { brokenStoreLine, storeLocations } from "../../harnesses/stores.ts";
import { findHarness } from "../../harnesses/registry.ts";
import { listSessions } from "../../pipeline/list.ts";
import { localMinute, type Output } from "../output.ts";
import type { Column } from "../width.ts";
import { aliasRegistry } from "../aliases.ts";
import type { Registry } from "../../harnesses/registry.ts";
import type { SessionSummary } from "../../harnesses/types.ts";
import type { SessionRegistry } from "../../registry/registry.ts";

export const list: Command = {
  usage: "session-bridge list [--from H] [--cwd DIR] [-n N] [--full-ids] [--json]",
  help: `  --from H       only this harness's sessions
  --cwd DIR      only sessions recorded in this directory
  -n, --limit N  only the N newest (a line on stderr says how many there are)
  --full-ids     show whole ids (default: each id's shortest unique prefix, which any <session> takes;
                 --json has both)
Newest first, as latest, latest~N and H~N count: UPDATED is a session's last message (the user's, the
assistant's, a tool call or its result) as the session records it, one rule for every harness, so a copy a
handoff just made (its handshake written at the handoff) is the newest.
On a terminal the table fits its width: a long CWD loses its middle (its last folder, the project, stays),
a long title its end. In a pipe every cell is whole.
A store that cannot be read is named on stderr (in --json: brokenStores), the others are still listed, and
the exit code is 1.`,
  arguments: [],
  options: {
    from: { type: "string" },
    cwd: { type: "string" },
    limit: { type: "string", short: "n" },
    "full-ids": { type: "boolean" },
  },
  async run({ values }, context) {
    const { registry, homes, bridgeHome, json, feedback, output } = context;
    const { err, fail, out, printJson } = output;
    const [from, cwd] = [str(values, "from"), str(values, "cwd")];
    const limit = limitOf(str(values, "limit"));
    const { sessions: all, broken } = await listSessions({
      registry,
      homes,
      bridgeHome,
      feedback,
      ...(from !== undefined ? { from } : {}),
      ...(cwd ? { cwd } : {}),
    });
    const code = broken.length ? 1 : 0;
    const rows = all.slice(0, limit);
    const names = await namesOf(registry, aliasRegistry(context), output);
    if (json) {
      printJson({
        sessions: rows.map((r) => {
          const aliases = names(r);
          return aliases.length ? { ...r, aliases } : r;
        }),
        total: all.length,
        brokenStores: broken,
      });
      return code;
    }
    for (const b of broken) fail(brokenStoreLine(b));
    if (!rows.length) {
      const looked = from === undefined ? registry.harnesses : [findHarness(registry, from)];
      const where = `looked in ${storeLocations(looked, homes)}`;
      const filter = cwd ? ` recorded in ${cwd}` : "";
      out(`no sessions found${filter}${broken.length ? " in the readable stores" : ""} (${where})`);
      return code;
    }
    const named = rows.some((r) => names(r).length > 0);
    const header = ["HARNESS", "ID", ...(named ? ["NAME"] : []), "UPDATED", "CWD", "TITLE"];
    const columns: Column[] = [{}, { tone: "subtle" }, ...(named ? [{}] : []), {}, { shrink: "path" }, {
      shrink: "end",
      floor: 12,
    }];
    const cells = rows.map((r) => [
      r.harness,
      flag(values, "full-ids") ? r.id : r.prefix,
      ...(named ? [names(r).map((n) => `@${n}`).join(" ")] : []),
      localMinute(r.updatedAt),
      r.cwd ?? "",
      r.title ?? "",
    ]);
    // Loaded with the listing's own work: fitting costs a pipe nothing but the same padding as ever.
    const { fittedTable } = await import("../width.ts");
    for (const l of fittedTable(header, cells, columns, output.columns)) out(l);
    if (rows.length < all.length) err(`${rows.length} of ${all.length} sessions shown (-n N for more)`);
    return code;
  },
};

/** `-n N`: a whole number of sessions, at least one; none given is every session. */
function limitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) {
    throw new InputError(`-n expects a whole number of sessions, at least 1, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/**
 * The names each session has in LazyBridge's registry (any folder's scope: an id names one conversation), so
 * `@reviewer` shows beside the conversation it names. An unreadable registry is a warning; the sessions are
 * still listed.
 */
async function namesOf(
  registry: Registry,
  names: SessionRegistry,
  { warn }: Output,
): Promise<(row: SessionSummary) => string[]> {
  const byKey = new Map<string, Set<string>>();
  try {
    for (const e of await names.entries()) {
      const key = `${e.kind}\0${e.native_id}`;
      byKey.set(key, (byKey.get(key) ?? new Set()).add(e.name));
    }
  } catch (error) {
    warn(`could not read the alias registry: ${(error as Error).message}`);
  }
  if (!byKey.size) return () => [];
  return (row) => {
    const kind = findHarness(registry, row.harness).integrations.registryKind;
    return kind ? [...(byKey.get(`${kind}\0${row.id}`) ?? [])] : [];
  };
}
