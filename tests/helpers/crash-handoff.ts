/**
 * A CLI run that is killed outright (SIGKILL, as `kill -9` or a power cut would) at the `nth` time it reaches a
 * crash point (lib/io/crash-points.ts), or at the nth point of any kind when the point is "any". Run as a child
 * process: `crash-handoff.ts <point> <nth> [--harness-module PATH]... <cli args...>`; the environment is the
 * CLI's, and each harness module's harness joins the built-in ones (tests/helpers/harness-material.ts). Exits 0
 * with "crash point not reached (exit N; N points passed)" on stderr when the run ends before it.
 */
import { onCrashPoint } from "../../lib/io/crash-points.ts";
import { run } from "../../lib/cli/main.ts";
import { registryOfArgs } from "./harness-material.ts";

const [point, nth, ...rest] = process.argv.slice(2);
const { registry, rest: args } = await registryOfArgs(rest);
let seen = 0;
let passed = 0;
onCrashPoint((reached) => {
  passed++;
  if ((point === "any" || reached === point) && ++seen === Number(nth)) process.kill(process.pid, "SIGKILL");
});
const code = await run(args, process.env, { registry });
process.stderr.write(`crash point not reached (exit ${code}; ${passed} points passed)\n`);
process.exit(code === 0 ? 0 : 3);
