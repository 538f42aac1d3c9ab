/**
 * The options `session-bridge certify` and the repository's `acceptance/matrix.ts` share: mode, seed styles,
 * routes, hops, drift policy. Each adds how it finds the harness binaries.
 */
import type { OptionSpec, Values } from "./args.ts";
import { flag, str } from "./args.ts";
import { InputError } from "../errors.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import type { Harness } from "../harnesses/types.ts";
import { MODE_RUNNERS } from "../certify/modes.ts";
import type { HarnessId, Mode } from "../certify-kit/driver.ts";
import { type Route, SEED_STYLES, type SeedStyle } from "../certify/types.ts";

export const CERTIFY_OPTIONS = {
  "structure-only": { type: "boolean" },
  real: { type: "boolean" },
  styles: { type: "string" },
  pairs: { type: "string" },
  "no-hops": { type: "boolean" },
  touching: { type: "string" },
  "allow-drift": { type: "boolean" },
} as const satisfies OptionSpec;

export const CERTIFY_HELP =
  `  --structure-only   no model at all: seed from embedded captured sessions, check placement, rows, content
                     and the target's own listing
  --real             no fake servers: the providers and credentials of your own harness setups (copied
                     into private temp homes) answer, and the resumed agent must recall the sentinels
  --styles S,...     how sources are seeded: exec (one-shot runs), interactive (typed into the TUI through
                     tmux), interrupted (typed, a long tool call cancelled, a message queued); default all
                     three against the fake servers, exec in the other modes
  --pairs A:B,...    only these routes, each in every style; A:B:C hands the session on from B to C
                     (default: exec every pair with its hop back, each TUI style from every harness
                     through all the others: A → B → C ..., and interrupted ones A → A)
  --no-hops          A → B only: no hop back, no second handoff
  --touching H,...   only the routes whose session starts in one of these harnesses or is handed first
                     into one (a new version of H certified against every other harness, not the whole plan)
  --allow-drift      report unknown shapes in the seeded stores without failing the row`;

export function certifyMode(values: Values): Mode {
  if (flag(values, "structure-only") && flag(values, "real")) {
    throw new InputError("--structure-only and --real exclude each other");
  }
  return flag(values, "structure-only") ? "structure" : flag(values, "real") ? "real" : "full";
}

/** `interactive,interrupted`, checked against what the mode can seed; else every style the mode can. */
export function certifyStyles(values: Values, mode: Mode): SeedStyle[] {
  const possible = MODE_RUNNERS[mode].styles;
  const text = str(values, "styles");
  if (text === undefined) return [...possible];
  return text.split(",").map((name) => {
    const style = SEED_STYLES.find((s) => s === name);
    if (!style) {
      throw new InputError(`--styles: unknown style ${JSON.stringify(name)} (${SEED_STYLES.join(", ")})`);
    }
    if (!possible.includes(style)) {
      throw new InputError(
        `--styles: ${mode} mode cannot seed ${style} sessions (it can: ${possible.join(", ")})`,
      );
    }
    return style;
  });
}

/** The harnesses whose descriptors say how certify drives them, in registry order. */
export function certifiable(registry: Registry): Harness[] {
  return registry.harnesses.filter((h) => h.integrations.certify);
}

/**
 * The routes to run. With --pairs, each route in every style (A:B gains its hop back A → B → A unless
 * --no-hops). Without, the coverage plan: every style of every harness resumes in every other harness.
 */
export function certifyRoutes(values: Values, mode: Mode, registry: Registry): Route[] {
  const routes = plannedRoutes(values, mode, registry);
  const touching = touchedHarnesses(values, registry);
  return touching ? routesTouching(routes, touching) : routes;
}

/** The harnesses --touching names, by their registry names; undefined without it. */
export function touchedHarnesses(values: Values, registry: Registry): HarnessId[] | undefined {
  return str(values, "touching")?.split(",").map((name) => findHarness(registry, name).name);
}

/**
 * The routes whose session starts in one of `harnesses` or is handed first into one: every exec pair with one
 * of them, the TUI sessions they seed, and the TUI sessions of others whose first resume is in one of them.
 */
export function routesTouching(routes: Route[], harnesses: HarnessId[]): Route[] {
  return routes.filter((route) => route.hops.slice(0, 2).some((h) => harnesses.includes(h)));
}

/**
 * Share `k` of `n` of the routes: the TUI routes (interactive, interrupted) seeded in the harnesses at registry
 * positions k, k + n, k + 2n, ... (a harness's TUI routes share one seeding driver, so they go together), and the
 * exec routes at positions k, k + n, ... in plan order (every target of each source spread over the shares). Runs
 * taking the shares in turn run every route between them, where one run would take n times as long.
 */
export function routesInShare(routes: Route[], harnesses: HarnessId[], k: number, n: number): Route[] {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 0 || k >= n) {
    throw new InputError(`--share: expected K/N with 0 <= K < N, got ${k}/${n}`);
  }
  let exec = 0;
  return routes.filter((route) =>
    route.style === "exec" ? exec++ % n === k : harnesses.indexOf(route.hops[0]!) % n === k
  );
}

function plannedRoutes(values: Values, mode: Mode, registry: Registry): Route[] {
  const styles = certifyStyles(values, mode);
  const hops = !flag(values, "no-hops");
  const text = str(values, "pairs");
  if (text === undefined) return coveragePlan(styles, certifiable(registry).map((h) => h.name), hops);
  const paths = text.split(",").map((pair) => {
    const names = pair.split(":");
    if (names.length < 2 || names.length > 3 || names.some((n) => !n)) {
      throw new InputError(
        `--pairs: expected SOURCE:TARGET or SOURCE:TARGET:NEXT, got ${JSON.stringify(pair)}`,
      );
    }
    const path = names.map((name) => findHarness(registry, name).name);
    if (!hops) return path.slice(0, 2);
    return path.length === 2 && path[0] !== path[1] ? [...path, path[0]!] : path;
  });
  return styles.flatMap((style) => paths.map((path) => ({ style, hops: path })));
}

/**
 * exec: every ordered pair (same-harness copies included), each with its hop back. Each TUI style: from every
 * harness, handed to one other, resumed, and handed on through all the others (A → B → C ...), so its session
 * resumes in every other harness; the order (visitOrder) makes each style's routes between them hand a session
 * over every ordered pair, or with an odd number of harnesses both styles together; an interrupted session is
 * also copied within its own harness (A → A). Without hops the TUI styles run A → B for each B ≠ A.
 */
export function coveragePlan(styles: SeedStyle[], harnesses: HarnessId[], hops: boolean): Route[] {
  return styles.flatMap((style): Route[] => {
    if (style === "exec") {
      return harnesses.flatMap((a) =>
        harnesses.map((b) => ({ style, hops: hops && a !== b ? [a, b, a] : [a, b] }))
      );
    }
    return harnesses.flatMap((a, i) => {
      const others = visitOrder(harnesses, i, style === "interrupted" ? -1 : 1);
      const routes = hops ? [{ style, hops: [a, ...others] }] : others.map((b) => ({ style, hops: [a, b] }));
      // A copy within one harness must not lose the interrupted call its own resume would have kept.
      return style === "interrupted" ? [...routes, { style, hops: [a, a] }] : routes;
    });
  });
}

/**
 * The other harnesses in the order a route from the one at `i` visits them: at offsets 1, -1, 2, -2, ... from it
 * in the registry's circle (`sign` -1: the opposite offsets). Each handoff then spans 1, -2, 3, -4, ... places:
 * with an even number of harnesses all different, so the routes of all sources together hand a session over
 * every ordered pair (a sequencing of the cyclic group); with an odd number, the two signs together do. With
 * three harnesses this is simply the circle one way and the other.
 */
function visitOrder(harnesses: HarnessId[], i: number, sign: 1 | -1): HarnessId[] {
  const n = harnesses.length;
  return Array.from({ length: n - 1 }, (_, k) => {
    const step = Math.floor(k / 2) + 1;
    const offset = sign * (k % 2 === 0 ? step : -step);
    return harnesses[(((i + offset) % n) + n) % n]!;
  });
}
