import type { Command } from "../command.ts";
import { str } from "../args.ts";
import { InputError, messageOf } from "../../errors.ts";
import { findHarness } from "../../harnesses/registry.ts";
import { brokenStoreLine } from "../../harnesses/stores.ts";
import { listSessions } from "../../pipeline/list.ts";
import type { Session } from "../../ir/schema.ts";
import { table } from "../output.ts";
import { USAGE_GROUPS, usageAcross, type UsageGroup } from "../../observe/usage.ts";
import type { UsageTotals } from "../../observe/event-log.ts";

export const usage: Command = {
  usage:
    "session-bridge usage [--from H] [--cwd DIR] [--since DATE] [--by harness|model|session|day] [--json]",
  help: `  --from H       only this harness's sessions
  --cwd DIR      only sessions recorded in this directory
  --since DATE   only model responses at or after DATE (e.g. 2026-11-01 or an ISO time)
  --by G         group by harness (default), model, session or day
Tokens as each harness recorded them (input counts cached prompt tokens too). Cost as the harness recorded it,
where it records one, else estimated from a dated price table (marked *; the models it has no price for are named and
their cost left out). A store or session that cannot be read is named on stderr and the exit code is 1.`,
  arguments: [],
  options: {
    from: { type: "string" },
    cwd: { type: "string" },
    since: { type: "string" },
    by: { type: "string" },
  },
  async run({ values }, { registry, homes, json, limits, feedback, output }) {
    const { err, fail, out, printJson } = output;
    const by = groupOf(str(values, "by"));
    const since = sinceOf(str(values, "since"));
    const [from, cwd] = [str(values, "from"), str(values, "cwd")];
    const listed = await listSessions({
      registry,
      homes,
      feedback,
      ...(from !== undefined ? { from } : {}),
      ...(cwd ? { cwd } : {}),
    });
    for (const b of listed.broken) fail(brokenStoreLine(b));
    const sessions: Session[] = [];
    let unreadable = 0;
    for (const s of listed.sessions) {
      try {
        sessions.push(await findHarness(registry, s.harness).store.read(s.path, { limits, feedback }));
      } catch (error) {
        unreadable++;
        err(`session-bridge: skipped ${s.harness} session ${s.id} (${s.path}): ${messageOf(error)}`);
      }
    }
    const report = usageAcross(sessions, { by, ...(since ? { since } : {}) });
    const code = listed.broken.length || unreadable ? 1 : 0;
    const withEstimate = (t: UsageTotals, estimated: number | undefined) => ({
      ...t,
      estimated_cost_usd: estimated ?? 0,
    });
    if (json) {
      printJson({
        by,
        sessions: sessions.length,
        total: withEstimate(report.total, report.estimated.total),
        groups: Object.fromEntries(
          Object.entries(report.by_agent).map((
            [name, t],
          ) => [name, withEstimate(t, report.estimated.by_agent[name])]),
        ),
        prices: { as_of: report.pricesAsOf, unpriced: report.unpriced },
      });
      return code;
    }
    const row = (name: string, t: UsageTotals, estimated: number | undefined) => [
      name,
      String(t.input_tokens),
      String(t.output_tokens),
      t.cost_usd ? `$${t.cost_usd.toFixed(4)}${estimated ? "*" : ""}` : "",
    ];
    const rows = Object.entries(report.by_agent).sort(([a], [b]) => a.localeCompare(b));
    for (
      const line of table([
        [by.toUpperCase(), "INPUT", "OUTPUT", "COST"],
        ...rows.map(([name, t]) => row(name, t, report.estimated.by_agent[name])),
        row("total", report.total, report.estimated.total),
      ])
    ) out(line);
    if (report.estimated.total) {
      out(
        `* includes $${
          report.estimated.total.toFixed(4)
        } estimated from the price table of ${report.pricesAsOf}` +
          " (the harness recorded tokens, not cost)",
      );
    }
    const unpriced = Object.entries(report.unpriced).sort(([a], [b]) => a.localeCompare(b));
    if (unpriced.length) {
      const named = unpriced.map(([model, n]) => `${model} (${n} response${n === 1 ? "" : "s"})`).join(", ");
      out(`no price for ${named}: tokens counted, cost not`);
    }
    return code;
  },
};

function groupOf(value: string | undefined): UsageGroup {
  if (value === undefined) return "harness";
  const group = USAGE_GROUPS.find((g) => g === value);
  if (!group) {
    throw new InputError(`--by must be one of ${USAGE_GROUPS.join(", ")} (got ${JSON.stringify(value)})`);
  }
  return group;
}

function sinceOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new InputError(`--since takes a date such as 2026-11-01 (got ${JSON.stringify(value)})`);
  }
  return new Date(ms);
}
