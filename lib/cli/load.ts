/** Shared by the commands that take a `<session>`: the library's loadSession, warning about unsearched stores. */
import { str, type Values } from "./args.ts";
import type { Context } from "./command.ts";
import { type BrokenStore, brokenStoreLine } from "../harnesses/stores.ts";
import { err } from "./output.ts";
import { type Loaded, loadSession as load } from "../pipeline/load.ts";

export function loadSession(ref: string, values: Values, context: Context): Promise<Loaded> {
  const from = str(values, "from");
  return load({
    ref,
    ...(from !== undefined ? { from } : {}),
    registry: context.registry,
    homes: context.homes,
    bridgeHome: context.bridgeHome,
    onSkipped: warnSkipped,
  });
}

export function warnSkipped(b: BrokenStore): void {
  err(`session-bridge: warning: ${brokenStoreLine(b)}`);
}
