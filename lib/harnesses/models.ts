/**
 * What a harness descriptor says about models: the model its own configuration names, and which model ids it
 * can continue on. The choice between them for a handoff is the pipeline's (lib/pipeline/model.ts).
 */

export interface ConfiguredModel {
  model: string;
  /** Why it is this harness's model, for the report: `configured in <file> (profile p)`, ... */
  where: string;
  /** The context window the configuration gives the model, in tokens, when it gives one (see lib/fit). */
  window?: number;
}

/**
 * Where a harness's configuration lies besides its home, for one whose configuration is not in it (OpenCode's
 * is in its config folder, a variable's file, and the project's own files): the environment read at the edge
 * and the directory the session continues in.
 */
export interface ConfigPlace {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Which model ids a harness can continue on (its descriptor's `models`). */
export interface ModelRules {
  /** A model id in this harness's namespace, or undefined when it has none there. */
  map(model: string): string | undefined;
  /** The model a session gets when nothing names one; absent: the harness picks its own at resume. */
  fallback?: string;
  /**
   * The model whose window a session with no model named is fitted to (lib/fit/windows.ts), for a harness that
   * picks its own at resume: its makers' current default, or the smallest of those it may pick.
   */
  windowModel?: string;
  /** The most tokens the harness sends any model, where its own service caps prompts below the model's window. */
  windowCap?: number;
}

/** A model id without its router prefixes (`openrouter/anthropic/claude-x` → `claude-x`). */
export const bareModel = (model: string): string => model.replace(/^(?:[\w.-]+\/)*/, "");

/** The vendor a router's id names first (`anthropic/claude-x` → `anthropic`), lower case. */
export const modelVendor = (model: string): string | undefined =>
  /^([\w-]+)\//.exec(model)?.[1]?.toLowerCase();

/** Bare model families and the provider whose own API serves each, by the id multi-provider harnesses give it. */
const FAMILY_PROVIDERS: readonly [RegExp, string][] = [
  [/^claude-/, "anthropic"],
  [/^(?:gpt-|o\d|codex-|chatgpt-)/, "openai"],
  [/^gemini-/, "google"],
];

/** A provider id and a model id as a multi-provider harness takes them: a word, then anything without a space. */
const PROVIDER_QUALIFIED = /^[\w.-]+\/\S+$/;

/**
 * A model id as `<provider>/<model>` for a harness that runs any provider (OpenCode, Pi): an id that already
 * names a provider kept as it is, a bare id of a known family given its maker's provider, else none.
 */
export function providerQualified(model: string): string | undefined {
  if (PROVIDER_QUALIFIED.test(model)) return model;
  const provider = FAMILY_PROVIDERS.find(([family]) => family.test(model))?.[1];
  return provider ? `${provider}/${model}` : undefined;
}
