import { test } from "node:test";
import assert from "node:assert/strict";
import { type Measured, pairedRuns } from "../bench/measure.ts";

const run = (seconds: number, cpuSeconds = seconds): Measured => ({
  seconds,
  cpuSeconds,
  peakRssBytes: 0,
  stdout: "",
});

test("the bench runs ours and its floor in turn, the floor after the run of ours it may read", () => {
  const calls: string[] = [];
  let written = 0;
  pairedRuns(3, () => {
    calls.push(`ours ${++written}`);
    return run(1);
  }, () => {
    calls.push(`floor reads ${written}`);
    return run(1);
  });
  assert.deepEqual(calls, ["ours 1", "floor reads 1", "ours 2", "floor reads 2", "ours 3", "floor reads 3"]);
});

test("a floor's ratio is taken within each pair: a machine slowed for one pair moves both of its runs", () => {
  // The second pair ran on a machine three times slower: ours took 3 s against a floor of 3 s there. Medians
  // taken apart would set ours's 2 s against the floor's 1 s (2x); pair by pair ours is 1x, 1x and 2x: 1x.
  const ours = [run(1, 0.5), run(3, 1.5), run(2, 1)];
  const floors = [run(1, 0.25), run(3, 0.75), run(1, 0.25)];
  const paired = pairedRuns(3, () => ours.shift()!, () => floors.shift()!);
  assert.equal(paired.wall, 1);
  assert.equal(paired.cpu, 2);
  // Each side's figures are its median run by CPU time, as a row shows them.
  assert.equal(paired.a.seconds, 2);
  assert.equal(paired.b.seconds, 1);
});

test("one run is one pair, its own ratio", () => {
  const paired = pairedRuns(1, () => run(3, 2), () => run(2, 1));
  assert.equal(paired.wall, 1.5);
  assert.equal(paired.cpu, 2);
});
