/**
 * The TUI's open times, in a process of its own: from process start to the first screen (the picker drawn
 * with the first store's sessions: `onFirstRows`) and to every store listed (`onListed`), over the stores the
 * environment names (bench/run.ts passes the 2,000-session world's homes). Renders offscreen (80×24): the
 * work is the same as on a terminal, minus writing to it. Prints the milliseconds (wall and CPU) as JSON on stdout.
 */
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { resolveHomes } from "../lib/harnesses/homes.ts";
import { resolveBridgeHome } from "../lib/store/backup.ts";
import { targetVersionsFrom } from "../lib/pipeline/environment.ts";
import { startListing, type TuiContext } from "../lib/tui/data.ts";

const env = process.env;
const context: TuiContext = {
  registry: builtinRegistry,
  homes: resolveHomes(builtinRegistry.harnesses, {}, env),
  bridgeHome: resolveBridgeHome(env),
  env,
  targetVersions: targetVersionsFrom(builtinRegistry, env),
  cwd: process.cwd(),
  now: () => new Date(),
};
// As `session-bridge tui` does: the stores are read while Ink and React load.
const listings = startListing(context);
const { openPicker } = await import("../lib/tui/app.tsx");
const opened = openPicker(context, listings);
// performance.now() counts from the process's start: module loading (Ink, React) is part of opening.
// CPU time too (user + system, of this process): on a shared machine the wall time waits for the neighbours.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
await opened.firstRows;
const firstScreenMs = performance.now();
const firstScreenCpuMs = cpuMs();
const close = await opened.listed;
const listedMs = performance.now();
const listedCpuMs = cpuMs();
close();
console.log(JSON.stringify({ firstScreenMs, firstScreenCpuMs, listedMs, listedCpuMs }));
process.exit(0);
