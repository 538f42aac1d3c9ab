/**
 * A harness at work on a session, for the reads campaign: `harness-writer.ts [--harness-module PATH]... NAME
 * FILE ID` writes turns to the session ID of FILE as harness NAME does (its test material's `startWriting`: a
 * transcript's lines each in two writes, so a reader can find half of one; a database's rows in transactions),
 * until its stdin closes; then it finishes the turn it is writing and exits, printing how many it wrote.
 */
import { moduleArgs } from "../../tests/helpers/harness-material.ts";
import { hostileCast, memberOf } from "./world.ts";

const { modules, rest } = moduleArgs(process.argv.slice(2));
const [name, file, id] = rest as [string, string, string];
const { hostile } = memberOf(await hostileCast(modules), name);
let stopped = false;
process.stdin.on("end", () => (stopped = true)).resume();

/** Where a reader may come upon a turn half-written: a millisecond's wait. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

const writer = hostile.startWriting(file, id, pause);
let turns = 0;
while (!stopped) {
  turns++;
  await writer.turn(turns, new Date(Date.UTC(2026, 11, 1, 0, 0, turns)));
}
writer.close();
console.log(`${turns} turns written`);
