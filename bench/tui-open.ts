/**
 * The TUI's open time, in a process of its own: from process start to the first screen showing the session
 * list (the picker's `onListed`), over the stores the environment names (bench/run.ts passes the 2,000-session
 * world's homes). Renders offscreen (80×24): the work is the same as on a terminal, minus writing to it.
 * Prints the milliseconds on stdout.
 */
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { resolveHomes } from "../lib/harnesses/homes.ts";
import { resolveBridgeHome } from "../lib/store/backup.ts";
import { targetVersionsFrom } from "../lib/pipeline/environment.ts";
import { openPicker } from "../lib/tui/app.tsx";

const env = process.env;
const close = await openPicker({
  registry: builtinRegistry,
  homes: resolveHomes(builtinRegistry.harnesses, {}, env),
  bridgeHome: resolveBridgeHome(env),
  env,
  targetVersions: targetVersionsFrom(builtinRegistry, env),
  cwd: process.cwd(),
  now: () => new Date(),
});
// performance.now() counts from the process's start: module loading (Ink, React) is part of opening.
const openedMs = performance.now();
close();
console.log(openedMs.toFixed(1));
process.exit(0);
