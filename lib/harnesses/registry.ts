/**
 * The harnesses session-bridge works with, as a value the CLI's edge passes down (never looked up from module
 * state): flags, help, homes, listings and lookups by name all derive from it, so a test or an extension can
 * run the real CLI with one more harness (`withHarness`).
 */
import { InputError } from "../errors.ts";
import { PROVIDER_ID } from "../ir/provider.ts";
import type { Harness } from "./types.ts";
import { claudeCode } from "./claude-code/index.ts";
import { codex } from "./codex/index.ts";
import { hermes } from "./hermes/index.ts";
import { geminiCli } from "./gemini-cli/index.ts";
import { openCode } from "./opencode/index.ts";
import { copilotCli } from "./copilot-cli/index.ts";
import { pi } from "./pi/index.ts";

/** The harnesses built in. */
export type HarnessName =
  | "claude-code"
  | "codex"
  | "hermes"
  | "gemini-cli"
  | "opencode"
  | "copilot-cli"
  | "pi";

/** Every built-in harness by name: a built-in name without its harness here is a type error. */
export const BUILTIN_HARNESSES: Record<HarnessName, Harness> = {
  "claude-code": claudeCode,
  codex,
  hermes,
  "gemini-cli": geminiCli,
  opencode: openCode,
  "copilot-cli": copilotCli,
  pi,
};

export interface Registry {
  /** Every harness, in the order help, flags and listings show them. */
  readonly harnesses: readonly Harness[];
}

export const builtinRegistry: Registry = { harnesses: Object.values(BUILTIN_HARNESSES) };

/**
 * `registry` with one more harness, refused when its name, an alias or its home flag is already taken, or when
 * its reasoning provider is no provider id.
 */
export function withHarness(registry: Registry, added: Harness): Registry {
  const provider = added.conversation.capabilities.reasoningProvider;
  if (!PROVIDER_ID.test(provider)) {
    throw new Error(
      `harness ${added.name}: reasoning provider ${JSON.stringify(provider)} is no provider id`,
    );
  }
  const words = [added.name, ...added.aliases];
  for (const h of registry.harnesses) {
    const clash = words.find((w) => w === h.name || h.aliases.includes(w));
    if (clash) throw new Error(`harness ${added.name}: ${JSON.stringify(clash)} already names ${h.name}`);
    if (h.home.flag === added.home.flag) {
      throw new Error(`harness ${added.name}: --${h.home.flag} is ${h.name}'s`);
    }
  }
  return { harnesses: [...registry.harnesses, added] };
}

/** The harness a name or alias (any case) stands for; an unknown word is bad input naming every harness. */
export function findHarness(registry: Registry, word: string): Harness {
  const wanted = word.toLowerCase();
  const found = registry.harnesses.find((h) => h.name === wanted || h.aliases.includes(wanted));
  if (!found) {
    throw new InputError(`unknown harness ${JSON.stringify(word)} (expected ${harnessList(registry)})`);
  }
  return found;
}

/** The kinds LazyBridge's alias registry files the registered harnesses' conversations under. */
export function registryKinds(registry: Registry): string[] {
  return registry.harnesses.flatMap((h) => h.integrations.registryKind ?? []);
}

/** "claude-code, codex or hermes". */
export function harnessList(registry: Registry): string {
  return orList(registry.harnesses.map((h) => h.name));
}

/** "a, b or c". */
export function orList(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : words.join("");
}
