/** The harness registry: names, aliases, and which harnesses are wired in so far. */
import { InputError, RefusedError } from "../errors.ts";
import type { HarnessName } from "../ir/schema.ts";
import type { Harness } from "./types.ts";
import { claudeCode } from "./claude-code/index.ts";
import { codex } from "./codex/index.ts";
import { hermes } from "./hermes/index.ts";

const ALIASES: Record<string, HarnessName> = {
  "claude-code": "claude-code",
  claude: "claude-code",
  codex: "codex",
  hermes: "hermes",
};

const IMPLEMENTED: Partial<Record<HarnessName, Harness>> = { "claude-code": claudeCode, codex, hermes };

export function harnessName(word: string): HarnessName {
  const name = ALIASES[word.toLowerCase()];
  if (!name) {
    throw new InputError(`unknown harness ${JSON.stringify(word)} (expected claude-code, codex or hermes)`);
  }
  return name;
}

/** The harness for a name; a known harness whose support has not landed yet is refused clearly. */
export function harness(name: HarnessName): Harness {
  const found = IMPLEMENTED[name];
  if (!found) throw new RefusedError(`${name} is not supported yet`);
  return found;
}

export function implementedHarnesses(): Harness[] {
  return Object.values(IMPLEMENTED);
}

export { type HomeFlags, resolveHomes } from "./homes.ts";
