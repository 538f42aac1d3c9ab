/**
 * The handoffs certify makes go through session-bridge's real CLI in a child process, as a user runs it: the
 * binary named with --bridge, else this very program. Its backups, undo ledger and tool provenance go to a
 * private SESSION_BRIDGE_HOME, shared by the hops of one pair as they would be on a user's machine.
 */
import { fileURLToPath } from "node:url";
import type { HomeFlags } from "../harnesses/homes.ts";
import type { Registry } from "../harnesses/registry.ts";
import { selfArgv } from "../runtime.ts";
import { definedEnv, spawnCollect, tail } from "./spawn.ts";
import type { HarnessId } from "./types.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** The argv prefix that runs session-bridge: `binary` when given, else this program. */
export function bridgeArgv(binary?: string): string[] {
  return binary ? [binary] : selfArgv(MAIN);
}

export interface HandoffRequest {
  /** A session id or a file path. */
  session: string;
  from: HarnessId;
  to: HarnessId;
  cwd: string;
  homes: HomeFlags;
}

export interface HandedOff {
  id: string;
  /** Where the target keeps it: a file, or `<database>#<id>`. */
  path: string;
}

/** Each home given, as the flag the CLI takes for it. */
export function homeArgs(homes: HomeFlags, registry: Registry): string[] {
  return registry.harnesses.flatMap((h) => {
    const home = homes[h.name];
    return home ? [`--${h.home.flag}`, home] : [];
  });
}

export async function handoff(
  argv: string[],
  bridgeHome: string,
  request: HandoffRequest,
  registry: Registry,
): Promise<HandedOff> {
  const [command, ...pre] = argv;
  const args = [
    ...pre,
    "handoff",
    request.session,
    "--from",
    request.from,
    "--to",
    request.to,
    "--cwd",
    request.cwd,
    ...homeArgs(request.homes, registry),
    "--json",
  ];
  const env = { ...definedEnv(process.env), SESSION_BRIDGE_HOME: bridgeHome };
  const r = await spawnCollect(command!, args, { cwd: request.cwd, env, timeoutMs: 120_000 });
  if (r.code !== 0) {
    throw new Error(`handoff ${request.from} → ${request.to} failed (exit ${r.code}): ${tail(r.stderr)}`);
  }
  const target = (JSON.parse(r.stdout) as { target: HandedOff }).target;
  return { id: target.id, path: target.path };
}
