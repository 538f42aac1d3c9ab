/**
 * The demo's throwaway world: harness homes in a temp folder, seeded with real captured sessions that are
 * embedded in the binary, so the demo runs on a machine with no harness installed. Each harness seats itself
 * (its descriptor's `demo`): the first with a sample is the source, the others start as a first run leaves them.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Registry } from "../harnesses/registry.ts";
import type { DemoSeat, Harness } from "../harnesses/types.ts";

export interface Sandbox {
  root: string;
  /** A home for every registered harness, by name (an empty folder for one the demo does not seat). */
  homes: Readonly<Record<string, string>>;
  bridgeHome: string;
  /** The harness whose sample session the demo hands around. */
  source: Harness;
  /** The harnesses the demo seats, in the registry's order (the source first among them). */
  seated: readonly Harness[];
  sessionId: string;
  targetCwd: string;
}

const SAMPLE_CWD = "/home/user/project";

export async function buildSandbox(registry: Registry): Promise<Sandbox> {
  const seated = registry.harnesses.filter((h) => h.demo);
  const seats = await Promise.all(
    seated.map(async (h): Promise<[Harness, DemoSeat]> => [h, await h.demo!.seat()]),
  );
  const found = seats.find(([, seat]) => seat.sample);
  if (!found) throw new Error("no registered harness has a sample session for the demo");
  const [source, sourceSeat] = found;
  const root = mkdtempSync(join(tmpdir(), "session-bridge-demo-"));
  // Each home is named as its default folder is, without the dot (`claude`, `codex`): what a user finds there.
  const homes = Object.fromEntries(
    registry.harnesses.map((h) => [h.name, join(root, h.home.folder.replace(/^\./, ""))]),
  );
  const sample = sourceSeat.sample!(homes[source.name]!, SAMPLE_CWD);
  for (const [h, seat] of seats) {
    if (h === source) continue;
    if (seat.firstRun) seat.firstRun(homes[h.name]!, sample.model);
    else mkdirSync(homes[h.name]!, { recursive: true });
  }
  const targetCwd = join(root, "other-project");
  mkdirSync(targetCwd);
  return {
    root,
    homes,
    bridgeHome: join(root, "session-bridge"),
    source,
    seated: seats.map(([h]) => h),
    sessionId: sample.id,
    targetCwd,
  };
}
