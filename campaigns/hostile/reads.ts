/**
 * Reads while a harness writes: a process writes turns to a session as its harness does (harness-writer.ts: a
 * transcript's lines each in two writes, a database's rows in transactions) while `list`, `show`, `show --redact`, a
 * dry run and a real handoff of that session run. A read may see the session at any point of a turn: it must
 * read it (exit 0) or say in one clear line why not, never call a live session bad input; the handoff undoes
 * cleanly, and the session the harness wrote is whole.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../../lib/runtime.ts";
import { caseFindings, type Finding } from "./invariants.ts";
import type { CampaignKind } from "./kind.ts";
import {
  createWorld,
  handoffArgs,
  homeFlags,
  listing,
  memberOf,
  operationOf,
  type Run,
  runCli,
  type World,
} from "./world.ts";

const WRITER = fileURLToPath(new URL("./harness-writer.ts", import.meta.url));

/** The harness writer, started; `stop()` closes its stdin and resolves once it has finished its turn. */
function startWriter(world: World, harness: string): { stop(): Promise<string> } {
  const { id, file } = world.sessions[harness]!;
  const [bin, ...pre] = scriptArgv(WRITER);
  const child = spawn(bin!, [...pre, ...world.cast.modules, harness, file, id], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const ended = new Promise<string>((resolve) =>
    child.on("close", (code) => resolve(code === 0 ? output.trim() : `the writer failed: ${output.trim()}`))
  );
  return {
    stop() {
      child.stdin.end();
      return ended;
    },
  };
}

export const reads: CampaignKind = {
  unavailable: () => undefined,
  cases: (cast) => 2 * cast.members.length,
  async run(root, cast, index) {
    const { members } = cast;
    const harness = members[index % members.length]!.harness.name;
    const to = members[(index + 1) % members.length]!.harness.name;
    const world = createWorld(root, cast);
    const outsideBefore = listing(world.outside);
    const { id, home, file } = world.sessions[harness]!;
    // The source's session lives in a home of its own, which stands in for the harness's here (it is the one
    // being written), and is named by its file as every handoff names it.
    const own = home === world.homes[harness];
    const moved = own ? [] : [`--${memberOf(cast, harness).harness.home.flag}`, home];
    const flags = [...homeFlags(world), ...moved];
    const ref = own ? id : file;
    const writer = startWriter(world, harness);
    const tried: Run[] = [];
    for (const args of [["list"], ["show", ref], ["show", ref, "--redact"]]) {
      tried.push(await runCli(world, [...args, ...flags]));
    }
    const handoff = (...extra: string[]) => {
      const args = handoffArgs(world, to, ...extra);
      args[1] = ref;
      return runCli(world, [...args, ...moved]);
    };
    tried.push(await handoff("--dry-run"), await handoff());
    const wrote = await writer.stop();
    const findings: Finding[] = tried.filter((r) => r.code === 2).map((r) => ({
      kind: "outcome",
      detail: `${
        r.args.slice(0, 2).join(" ")
      } called the session being written bad input: ${r.stderr.trim()}`,
    }));
    if (wrote.startsWith("the writer failed")) findings.push({ kind: "outcome", detail: wrote });
    const runs = [...tried];
    const op = operationOf(tried.at(-1)!);
    if (op) runs.push(await runCli(world, ["undo", op]));
    const read = tried.filter((r) => r.code === 0).length;
    return {
      label: `${harness} writing (${wrote}), read and handed off into ${to}`,
      outcome: read === tried.length ? "all read" : `${tried.length - read} of ${tried.length} refused`,
      findings: [...findings, ...caseFindings(world, outsideBefore, runs)],
    };
  },
};
