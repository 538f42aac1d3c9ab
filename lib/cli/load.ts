/** Shared by the commands that take a `<session>`: the library's loadSession, warning about unsearched stores. */
import { str, type Values } from "./args.ts";
import type { Context } from "./command.ts";
import { type BrokenStore, brokenStoreLine } from "../harnesses/stores.ts";
import { type Loaded, loadSession as load } from "../pipeline/load.ts";
import type { NamedSessions } from "../aliases/named.ts";
import { aliasRegistry } from "./aliases.ts";
import process from "node:process";

export function loadSession(ref: string, values: Values, context: Context): Promise<Loaded> {
  const from = str(values, "from");
  const { registry, homes, bridgeHome, onSkipped, named, env, limits, feedback } = storesOf(context);
  return load({
    ref,
    ...(from !== undefined ? { from } : {}),
    registry,
    homes,
    bridgeHome,
    onSkipped,
    named,
    env,
    limits,
    feedback,
  });
}

/**
 * What every library request takes from the CLI's context: the stores, the time, the environment to honour, and
 * a warning on stderr for each store that could not be searched.
 */
export function storesOf(
  context: Context,
):
  & Pick<
    Context,
    | "now"
    | "registry"
    | "homes"
    | "bridgeHome"
    | "env"
    | "targetVersions"
    | "recovered"
    | "limits"
    | "feedback"
  >
  & {
    onSkipped: (store: BrokenStore) => void;
    named: NamedSessions;
  } {
  const { now, registry, homes, bridgeHome, env, targetVersions, recovered, limits, feedback } = context;
  return {
    now,
    registry,
    homes,
    bridgeHome,
    env,
    targetVersions,
    recovered,
    limits,
    feedback,
    onSkipped: (b) => context.output.warn(brokenStoreLine(b)),
    named: { registry: aliasRegistry(context), cwd: process.cwd() },
  };
}
