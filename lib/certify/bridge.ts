/**
 * The handoffs certify makes. By default they run in this process through the library (lib/pipeline/handoff.ts),
 * exactly as `session-bridge handoff` runs them: a compiled binary running `certify` so certifies its own code.
 * Only a caller that certifies ANOTHER build (acceptance/matrix.ts --binary: the matrix runs from source, the
 * product under test is the compiled binary) names that build's argv, and its handoffs then go through its CLI in
 * a child process. Either way the backups, undo ledger and tool provenance go to a private session-bridge home,
 * shared by the hops of one route as they would be on a user's machine.
 */
import { type HomeFlags, homeVariables, resolveHomes } from "../harnesses/homes.ts";
import type { Registry } from "../harnesses/registry.ts";
import { exitCodeFor, messageOf } from "../errors.ts";
import { targetVersionsFrom } from "../pipeline/environment.ts";
import { handoff as runHandoff } from "../pipeline/handoff.ts";
import { definedEnv, spawnCollect, tail } from "../certify-kit/spawn.ts";
import { userEnvironment } from "../certify-kit/user-config.ts";
import type { HarnessId } from "../certify-kit/driver.ts";

export interface HandoffRequest {
  /** A session id or a file path. */
  session: string;
  from: HarnessId;
  to: HarnessId;
  cwd: string;
  homes: HomeFlags;
  /** The user's environment (a harness's own variables, version overrides). */
  env: NodeJS.ProcessEnv;
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

/** Hands a session off in this process, or through `build`'s CLI when one is named (see the header). */
export async function handoff(
  build: string[] | undefined,
  bridgeHome: string,
  request: HandoffRequest,
  registry: Registry,
): Promise<HandedOff> {
  return build
    ? await spawnedHandoff(build, bridgeHome, request, registry)
    : await inProcessHandoff(bridgeHome, request, registry);
}

async function inProcessHandoff(
  bridgeHome: string,
  request: HandoffRequest,
  registry: Registry,
): Promise<HandedOff> {
  // The user's environment as a child would have had it, without the variables that would locate homes.
  const env = userEnvironment(request.env, homeVariables(registry.harnesses));
  try {
    const { target } = await runHandoff({
      source: { ref: request.session, from: request.from },
      to: request.to,
      cwd: request.cwd,
      registry,
      homes: resolveHomes(registry.harnesses, request.homes, env, request.cwd),
      bridgeHome,
      env,
      targetVersions: targetVersionsFrom(registry, env),
    });
    return { id: target.id, path: target.path };
  } catch (error) {
    throw new Error(
      `handoff ${request.from} → ${request.to} failed (exit ${exitCodeFor(error)}): ${messageOf(error)}`,
    );
  }
}

async function spawnedHandoff(
  build: string[],
  bridgeHome: string,
  request: HandoffRequest,
  registry: Registry,
): Promise<HandedOff> {
  const [command, ...pre] = build;
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
  const env = { ...definedEnv(request.env), SESSION_BRIDGE_HOME: bridgeHome };
  const r = await spawnCollect(command!, args, { cwd: request.cwd, env, timeoutMs: 120_000 });
  if (r.code !== 0) {
    throw new Error(`handoff ${request.from} → ${request.to} failed (exit ${r.code}): ${tail(r.stderr)}`);
  }
  const target = (JSON.parse(r.stdout) as { target: HandedOff }).target;
  return { id: target.id, path: target.path };
}
