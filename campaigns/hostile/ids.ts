/**
 * Hostile session ids: `--session-id` values that climb out of a folder, name an absolute path, are empty,
 * huge, start with a dash, or carry control characters, shell syntax, bidi overrides or a new line. Handed off
 * into each harness, then listed and undone: refused in one clear line or used as a plain name, and nothing
 * written outside the homes (the case's `outside` folder sits beside them, where `../` leads).
 */
import { caseFindings } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import { createWorld, handoffArgs, homeFlags, listing, operationOf, outcomeOf, runCli } from "./world.ts";

export const HOSTILE_IDS = [
  "../../../outside/pwned",
  "../../../../outside/pwned",
  "../outside",
  "..",
  ".",
  "",
  "/tmp/pwned",
  "a/../../b",
  "x".repeat(5000),
  "-rf",
  "--help",
  "$(touch pwned)",
  "`id`",
  "\u001b[31mred\u001b]0;title\u0007",
  "line\nbreak",
  "\u202eevil\u202c",
  "con",
  "*?[]",
  " spaced ",
];

export const hostileIds: CampaignKind = {
  unavailable: () => undefined,
  cases: () => HOSTILE_IDS.length,
  async run(root, cast, index) {
    const to = cast.members[index % cast.members.length]!.harness.name;
    // The first HOSTILE_IDS.length cases try each id once, into a harness in turn.
    const id = HOSTILE_IDS[index % HOSTILE_IDS.length]!;
    const world = createWorld(root, cast);
    const outsideBefore = listing(world.outside);
    const handoff = await runCli(world, handoffArgs(world, to, "--session-id", id));
    const runs = [handoff, await runCli(world, ["list", ...homeFlags(world)])];
    const op = operationOf(handoff);
    if (op) runs.push(await runCli(world, ["undo", op]));
    return {
      outcome: outcomeOf(handoff),
      label: `--session-id ${
        JSON.stringify(id.length > 40 ? `${id.slice(0, 12)}... (${id.length})` : id)
      } into ${to}`,
      findings: caseFindings(world, outsideBefore, runs),
    };
  },
};
