/**
 * LazyBridge's alias registry as the CLI sees it. Apart from load.ts so `list`, which shows the names beside
 * the sessions, loads no session reader with it.
 */
import type { Context } from "./command.ts";
import { err } from "./output.ts";
import { SessionRegistry } from "../registry/registry.ts";

/** LAZYBRIDGE_SESSIONS_FILE honoured, a moved-aside file warned of. */
export function aliasRegistry(env: Context["env"]): SessionRegistry {
  return new SessionRegistry({
    env,
    ...(env.HOME ? { home: env.HOME } : {}),
    warn: (message) => err(`session-bridge: warning: ${message}`),
  });
}
