/**
 * `session-bridge alias`: the names in LazyBridge's registry (`~/.lazybridge/sessions.json`, or
 * $LAZYBRIDGE_SESSIONS_FILE), for this folder's scope unless --scope says another. A name is kept per kind
 * (each harness's descriptor names its own); without --kind, rename, forget and resolve act on every kind the name is bound under.
 */
import process from "node:process";
import type { Command, Context } from "../command.ts";
import { flag, str } from "../args.ts";
import { aliasRegistry } from "../aliases.ts";
import { loadSession } from "../load.ts";
import { InputError } from "../../errors.ts";
import { table } from "../output.ts";
import { audit } from "../audit.ts";
import { findHarness, orList, registryKinds } from "../../harnesses/registry.ts";
import type { Harness } from "../../harnesses/types.ts";
import { type RegistryEntry, type RegistryKind, type SessionRegistry } from "../../registry/registry.ts";

const ACTIONS = ["list", "bind", "rename", "forget", "resolve"] as const;

export const alias: Command = {
  usage: "session-bridge alias (list | bind NAME <session> | rename OLD NEW | forget NAME | resolve NAME) " +
    "[--kind K] [--scope DIR] [--model M] [--effort E] [--all] [--json]",
  help: (registry) =>
    `  list               the names in this folder's scope (--all: every scope)
  bind NAME <session>  name a conversation (<session> in any form; with --kind, a native id taken as is)
  rename OLD NEW     rename (a taken NEW is refused; forget it first)
  forget NAME        drop the name; the conversation itself is untouched
  resolve NAME       print the native id the name is bound to
  --kind K           ${orList(registryKinds(registry))}, or a harness name (default: every kind the name has)
  --scope DIR        the folder whose names these are (default: the current folder)
  --all              list: every scope
  --from H           bind: look for <session> in this harness only
  --model M          bind: the model the conversation runs on, recorded with the name (as LazyBridge does)
  --effort E         bind: its reasoning effort, recorded likewise
The registry is LazyBridge's ($LAZYBRIDGE_SESSIONS_FILE, else ~/.lazybridge/sessions.json), shared byte for
byte; @NAME names the conversation as a <session> in every command.`,
  arguments: ["action", "[name]", "[second]"],
  options: {
    kind: { type: "string" },
    scope: { type: "string" },
    all: { type: "boolean" },
    from: { type: "string" },
    model: { type: "string" },
    effort: { type: "string" },
  },
  async run(parsed, context) {
    const { out, printJson } = context.output;
    const [action, name, second] = parsed.positionals;
    if (!(ACTIONS as readonly string[]).includes(action ?? "")) {
      throw new InputError(`alias takes one of ${ACTIONS.join(", ")}, not ${JSON.stringify(action ?? "")}`);
    }
    const registry = aliasRegistry(context);
    const scope = registry.scopeOf(str(parsed.values, "scope") ?? process.cwd());
    const kind = kindOf(str(parsed.values, "kind"), context);
    const need = (count: number) => {
      const given = [name, second].filter((p) => p !== undefined).length;
      if (given < count) throw new InputError(`alias ${action} needs ${count === 1 ? "NAME" : "two names"}`);
      if (given > count) throw new InputError(`unexpected argument ${JSON.stringify(count ? second : name)}`);
    };
    switch (action) {
      case "list": {
        need(0);
        const entries = await registry.entries({
          ...(kind ? { kind } : {}),
          ...(flag(parsed.values, "all") ? {} : { scope }),
        });
        return show(entries, context, flag(parsed.values, "all") ? undefined : scope);
      }
      case "bind": {
        need(2);
        const [nativeId, bindKind] = kind
          ? [second!, kind]
          : await sessionOf(second!, parsed.values, context);
        // As LazyBridge's bind: model and effort are overwritten, null when not given.
        const metadata = {
          model: str(parsed.values, "model") ?? null,
          effort: str(parsed.values, "effort") ?? null,
        };
        await registry.bind(bindKind, scope, name!, nativeId, metadata);
        audit(context, "alias_bind", { kind: bindKind, name, scope, native_id: nativeId, ...metadata });
        return report(context, `@${name} names ${bindKind} ${nativeId} in ${scope}`, {
          bound: [{ kind: bindKind, name, scope, native_id: nativeId, ...metadata }],
        });
      }
      case "rename": {
        need(2);
        const kinds = await kindsOf(registry, scope, name!, kind, registryKinds(context.registry));
        for (const k of kinds) await registry.rename(k, scope, name!, second!);
        audit(context, "alias_rename", { kinds, from: name, to: second, scope });
        return report(context, `@${name} is now @${second} (${kinds.join(", ")}) in ${scope}`, {
          renamed: kinds.map((k) => ({ kind: k, from: name, to: second, scope })),
        });
      }
      case "forget": {
        need(1);
        const kinds = await kindsOf(registry, scope, name!, kind, registryKinds(context.registry));
        for (const k of kinds) await registry.forget(k, scope, name!);
        audit(context, "alias_forget", { kinds, name, scope });
        return report(context, `forgot @${name} (${kinds.join(", ")}) in ${scope}`, {
          forgotten: kinds.map((k) => ({ kind: k, name, scope })),
        });
      }
      default: {
        need(1);
        const kinds = await kindsOf(registry, scope, name!, kind, registryKinds(context.registry));
        const entries = (await registry.entries({ scope })).filter((e) =>
          e.name === name && (kinds as string[]).includes(e.kind)
        );
        if (context.json) printJson({ scope, aliases: entries.map((e) => withHarness(e, context)) });
        else if (entries.length === 1) out(entries[0]!.native_id);
        else for (const e of entries) out(`${e.kind} ${e.native_id}`);
        return 0;
      }
    }
  },
};

/** `--kind`: a registry kind, or a harness name standing for its kind. */
function kindOf(word: string | undefined, { registry }: Context): RegistryKind | undefined {
  if (word === undefined) return undefined;
  if (registryKinds(registry).includes(word)) return word;
  const harness = findHarness(registry, word);
  if (harness.integrations.registryKind === undefined) {
    throw new InputError(`${harness.name} has no kind in the alias registry`);
  }
  return harness.integrations.registryKind;
}

/** The registered kinds `name` is bound under in `scope` (just `kind` when given); none is bad input. */
async function kindsOf(
  registry: SessionRegistry,
  scope: string,
  name: string,
  kind: RegistryKind | undefined,
  registered: readonly RegistryKind[],
): Promise<RegistryKind[]> {
  if (kind) return [kind];
  const kinds = (await registry.entries({ scope })).filter((e) => e.name === name).map((e) => e.kind);
  const known = kinds.filter((k) => registered.includes(k));
  if (!known.length) {
    throw new InputError(
      `no conversation is named @${name} in ${scope} (session-bridge alias list shows the names here)`,
    );
  }
  return known;
}

/** The native id and kind of a `<session>` found in the stores. */
async function sessionOf(
  ref: string,
  values: Parameters<typeof loadSession>[1],
  context: Context,
): Promise<[string, RegistryKind]> {
  const { session, source } = await loadSession(ref, values, context);
  if (source.integrations.registryKind === undefined) {
    throw new InputError(`${source.name} has no kind in the alias registry`);
  }
  return [session.meta.id, source.integrations.registryKind];
}

function withHarness(e: RegistryEntry, { registry }: Context): RegistryEntry & { harness: string | null } {
  const harness: Harness | undefined = registry.harnesses.find((h) => h.integrations.registryKind === e.kind);
  return { ...e, harness: harness?.name ?? null };
}

function show(entries: RegistryEntry[], context: Context, scope: string | undefined): number {
  const { out, printJson } = context.output;
  if (context.json) {
    printJson({ scope: scope ?? null, aliases: entries.map((e) => withHarness(e, context)) });
    return 0;
  }
  if (!entries.length) {
    out(`no names${scope ? ` in ${scope}` : ""} (session-bridge alias bind NAME <session> makes one)`);
    return 0;
  }
  const rows = entries.map((e) => [
    `@${e.name}`,
    withHarness(e, context).harness ?? e.kind,
    e.native_id,
    String(e.updated_at ?? ""),
    ...(scope ? [] : [e.scope]),
  ]);
  for (const line of table([["NAME", "HARNESS", "ID", "UPDATED", ...(scope ? [] : ["SCOPE"])], ...rows])) {
    out(line);
  }
  return 0;
}

function report(context: Context, line: string, body: Record<string, unknown>): number {
  if (context.json) context.output.printJson(body);
  else context.output.out(line);
  return 0;
}
