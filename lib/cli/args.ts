/**
 * Argument parsing on node:util parseArgs. Every command declares its options once; the global ones (each
 * registered harness's home, --json, --help) are merged in here so each command accepts them in any position.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { parseContext, parseFit } from "../fit/option.ts";
import type { FitMode } from "../fit/fit.ts";
import { InputError, messageOf } from "../errors.ts";
import type { HomeFlags } from "../harnesses/homes.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import type { Harness } from "../harnesses/types.ts";
import { PERMISSIONS_CHOICES, type PermissionsChoice } from "../posture/posture.ts";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export const GLOBAL_OPTIONS = {
  json: { type: "boolean" },
  // Read by the entry (lib/cli/display.ts) before the command's flags are parsed; accepted here anywhere.
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies OptionSpec;

/** `--<x>-home DIR` for every registered harness. */
export function homeOptions(registry: Registry): OptionSpec {
  return Object.fromEntries(registry.harnesses.map((h) => [h.home.flag, { type: "string" as const }]));
}

/** Flags every command that renders a session into another harness takes. */
export const CONVERSION_OPTIONS = {
  to: { type: "string" },
  cwd: { type: "string" },
  force: { type: "boolean" },
  "no-handshake": { type: "boolean" },
  "stub-open-calls": { type: "boolean" },
  "no-stub-open-calls": { type: "boolean" },
  permissions: { type: "string" },
  from: { type: "string" },
  fit: { type: "string" },
  context: { type: "string" },
  "summarize-with": { type: "string" },
} as const satisfies OptionSpec;

/** The help lines of `--fit`, `--context` and `--summarize-with`, which convert and handoff share. */
export const FIT_HELP =
  `  --fit F            auto (the default): when the history is longer than the target model's window (less
                     a margin for the next turns), the model is sent a summary of the oldest turns and the
                     most recent ones verbatim, the full history kept on disk; off: always the whole
                     history; TOKENS: fit it to at most that many tokens
  --context TOKENS   the target model's window (default: the target's configuration, else session-bridge's
                     table; see README, Fitting)
  --summarize-with H
                     a fitted session's summary written by harness H's model (run as you run H, its turn
                     not kept in its list) instead of made without a model; see README, Fitting`;

/** `--fit auto|off|TOKENS` and `--context TOKENS`, as the conversion takes them (absent: not given). */
export function fitFlags(values: Values): { fit?: FitMode; context?: number } {
  const fit = parseFit(str(values, "fit"));
  const context = parseContext(str(values, "context"));
  return { ...(fit !== undefined ? { fit } : {}), ...(context !== undefined ? { context } : {}) };
}

/** `--permissions narrow|keep` (default narrow: see PermissionsChoice); anything else is bad usage. */
export function permissionsFlag(values: Values): PermissionsChoice {
  const given = str(values, "permissions");
  if (given === undefined) return "narrow";
  const choice = PERMISSIONS_CHOICES.find((c) => c === given);
  if (!choice) {
    throw new InputError(
      `--permissions takes ${PERMISSIONS_CHOICES.join(" or ")}, not ${JSON.stringify(given)}`,
    );
  }
  return choice;
}

export type Values = Record<string, string | boolean | undefined>;

export interface Parsed {
  values: Values;
  positionals: string[];
}

/** The flags `options` (and the global ones) allow; a mistyped one is bad usage naming the nearest flag. */
export async function parse(argv: string[], options: OptionSpec, registry: Registry): Promise<Parsed> {
  const all = { ...homeOptions(registry), ...GLOBAL_OPTIONS, ...options };
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: all,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    const message = messageOf(error).replace(/\. To specify a positional argument.*$/s, "")
      // node's "Option '-o, --output <value>' argument missing", as a person would say it.
      .replace(/^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing$/, "$1 needs a value");
    const unknown = /^Unknown option '(--?[^'=]+)/.exec(message)?.[1];
    const flags = Object.keys(all).map((name) => `--${name}`);
    // Loaded on this error path only.
    const suggestion = unknown ? (await import("./suggest.ts")).didYouMean(unknown, flags) : "";
    throw new InputError(`${message}${suggestion}`);
  }
}

export function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

export function flag(values: Values, name: string): boolean {
  return values[name] === true;
}

export function harnessFlag(values: Values, name: string, registry: Registry): Harness | undefined {
  const v = str(values, name);
  return v === undefined ? undefined : findHarness(registry, v);
}

/** The homes given as flags, by harness name. */
export function homeFlags(values: Values, registry: Registry): HomeFlags {
  return Object.fromEntries(registry.harnesses.map((h) => [h.name, str(values, h.home.flag) || undefined]));
}

/** Exactly `count` positionals, or a usage error naming what is missing or extra. */
export function positionals(parsed: Parsed, names: string[]): string[] {
  if (parsed.positionals.length < names.length) {
    throw new InputError(`missing <${names[parsed.positionals.length]}>`);
  }
  if (parsed.positionals.length > names.length) {
    throw new InputError(`unexpected argument ${JSON.stringify(parsed.positionals[names.length])}`);
  }
  return parsed.positionals;
}

/** Standard output, as `-o -` names it. */
export const STDOUT = { fd: 1 } as const;

/** `-o FILE`, with `-` meaning standard output (as most tools read it); undefined when not given. */
export function outputFlag(values: Values, json: boolean): string | typeof STDOUT | undefined {
  const output = str(values, "output");
  if (output !== "-") return output || undefined;
  if (json) throw new InputError("--json needs -o FILE: stdout carries the JSON document, not the session");
  return STDOUT;
}
