/**
 * What an alias names in one folder: the conversations bound to it, one per registry kind, each with the
 * registered harness that keeps that kind (the descriptor's `registryKind`, so no harness is named here).
 */
import type { Harness } from "../harnesses/types.ts";
import { InputError } from "../errors.ts";
import { isAlias, type RegistryEntry, type SessionRegistry } from "../registry/registry.ts";

/** The alias registry and the folder whose scope `@NAME` is looked up in (the CLI's working folder). */
export interface NamedSessions {
  registry: SessionRegistry;
  cwd: string;
}

export interface AliasBinding {
  harness: Harness;
  entry: RegistryEntry;
}

/** `@NAME` → NAME, refusing what cannot be an alias. */
export function aliasOfReference(ref: string): string {
  const name = ref.slice(1);
  if (!isAlias(name)) {
    throw new InputError(
      `${
        JSON.stringify(ref)
      } is no alias: after @ comes a letter, then letters, digits, '_', '.' or '-' (max 64)`,
    );
  }
  return name;
}

/** Every binding of `name` in `named.cwd`'s scope for the given harnesses, in registry order. */
export async function aliasBindings(
  named: NamedSessions,
  name: string,
  harnesses: readonly Harness[],
): Promise<AliasBinding[]> {
  const scope = named.registry.scopeOf(named.cwd);
  const entries = await named.registry.entries({ scope });
  return entries.flatMap((entry) => {
    if (entry.name !== name) return [];
    const harness = harnesses.find((h) => h.integrations.registryKind === entry.kind);
    return harness ? [{ harness, entry }] : [];
  });
}

/** The one binding of `@name` in this folder (`from`: that harness's), or an error naming what there is. */
export async function uniqueBinding(
  named: NamedSessions,
  name: string,
  harnesses: readonly Harness[],
): Promise<AliasBinding> {
  const found = await aliasBindings(named, name, harnesses);
  const scope = named.registry.scopeOf(named.cwd);
  if (found.length === 0) {
    throw new InputError(
      `no conversation is named @${name} in ${scope} (session-bridge alias list shows the names here)`,
    );
  }
  if (found.length > 1) {
    const kinds = found.map((b) => `${b.harness.name} (${b.entry.native_id})`);
    throw new InputError(
      `@${name} names ${found.length} conversations in ${scope}: ${kinds.join(", ")}; ` +
        `choose one with ${found.map((b) => `--from ${b.harness.name}`).join(" or ")}`,
    );
  }
  return found[0]!;
}
