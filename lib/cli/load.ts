/** Shared by the commands that take a `<session>`: resolve the reference and read it into the IR. */
import type { Session } from "../ir/schema.ts";
import type { Harness } from "../harnesses/types.ts";
import { resolveSession } from "../harnesses/resolve.ts";
import { harnessFlag, type Values } from "./args.ts";
import { brokenStoreLine } from "../harnesses/stores.ts";
import { err } from "./output.ts";
import { restoreProvenance } from "../tools/provenance.ts";
import type { Context } from "./command.ts";

export async function loadSession(
  ref: string,
  values: Values,
  { registry, homes }: Pick<Context, "registry" | "homes">,
): Promise<{ session: Session; source: Harness }> {
  const resolved = await resolveSession(ref, registry, homes, harnessFlag(values, "from", registry));
  for (const b of resolved.skipped) err(`session-bridge: warning: ${brokenStoreLine(b)}`);
  const session = restoreProvenance(await resolved.harness.read(resolved.path));
  return { session, source: resolved.harness };
}
