/**
 * LazyBridge's alias registry as the CLI sees it. Apart from load.ts so `list`, which shows the names beside
 * the sessions, loads no session reader with it.
 */
import type { Context } from "./command.ts";
import { SessionRegistry } from "../registry/registry.ts";

/** LAZYBRIDGE_SESSIONS_FILE honoured, a moved-aside file warned of (on the run's stderr). */
export function aliasRegistry({ env, output }: Pick<Context, "env" | "output">): SessionRegistry {
  return new SessionRegistry({
    env,
    ...(env.HOME ? { home: env.HOME } : {}),
    warn: (message) => output.warn(message),
  });
}
