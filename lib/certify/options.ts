/**
 * The options `session-bridge certify` and the repository's `acceptance/matrix.ts` share: mode, pairs, hops,
 * drift policy. Each adds how it finds the harness binaries.
 */
import type { OptionSpec, Values } from "../cli/args.ts";
import { flag, str } from "../cli/args.ts";
import { InputError } from "../errors.ts";
import { harnessName } from "../harnesses/index.ts";
import { allPairs } from "./drivers.ts";
import type { HarnessId, Mode } from "./types.ts";

export const CERTIFY_OPTIONS = {
  "structure-only": { type: "boolean" },
  real: { type: "boolean" },
  pairs: { type: "string" },
  "no-hops": { type: "boolean" },
  "allow-drift": { type: "boolean" },
} as const satisfies OptionSpec;

export const CERTIFY_HELP =
  `  --structure-only   no model at all: seed from embedded captured sessions, check placement, rows, content
                     and the target's own listing
  --real             no fake servers: the providers and credentials of your own harness setups (copied
                     into private temp homes) answer, and the resumed agent must recall the sentinels
  --pairs A:B,...    only these pairs (default: every pair, same-harness ones included)
  --no-hops          skip the A → B → A hops back
  --allow-drift      report unknown shapes in the seeded stores without failing the pair`;

export function certifyMode(values: Values): Mode {
  if (flag(values, "structure-only") && flag(values, "real")) {
    throw new InputError("--structure-only and --real exclude each other");
  }
  return flag(values, "structure-only") ? "structure" : flag(values, "real") ? "real" : "full";
}

/** `claude-code:codex,codex:hermes` (aliases allowed), or every pair. */
export function certifyPairs(values: Values): [HarnessId, HarnessId][] {
  const text = str(values, "pairs");
  if (text === undefined) return allPairs();
  return text.split(",").map((pair) => {
    const [source, target, ...rest] = pair.split(":");
    if (!source || !target || rest.length) {
      throw new InputError(`--pairs: expected SOURCE:TARGET, got ${JSON.stringify(pair)}`);
    }
    return [harnessName(source), harnessName(target)];
  });
}
