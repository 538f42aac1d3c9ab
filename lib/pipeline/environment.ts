/**
 * What a library call takes from the environment, given by its caller (the CLI reads it once, at the edge):
 * nothing under lib/pipeline reads process.env.
 */
import type { Feedback } from "../io/progress.ts";
import type { Harness } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import { InputError } from "../errors.ts";
import type { ReadLimits } from "../io/jsonl.ts";

/** A harness version as harnesses print theirs: `0.169.0`, `2.1.328`, optionally with a pre-release suffix. */
const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

export interface EnvironmentOptions {
  /**
   * The environment to honour: the user's home folder (a resume command names a home only when it is not the
   * default one) and a harness's own variables (Claude Code's CLAUDE_CODE_PROJECT_DIR_NAME). Default: none.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * The version to write for, by harness name, when the target's home shows none (the CLI reads each from the
   * harness's `versionVariable`, such as SESSION_BRIDGE_CODEX_VERSION). Default: the newest embedded.
   */
  targetVersions?: Readonly<Record<string, string>>;
}

/** The version overrides `env` names, by harness name, for every harness that has a version variable. */
export function targetVersionsFrom(registry: Registry, env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    registry.harnesses.flatMap((h) => {
      const version = h.store.versionVariable ? env[h.store.versionVariable] : undefined;
      return version ? [[h.name, version]] : [];
    }),
  );
}

/** The render options a writer for `target` takes from the caller's environment. */
export function writerEnvironment(
  target: Harness,
  options: EnvironmentOptions & { limits?: ReadLimits; feedback?: Feedback },
): { env?: NodeJS.ProcessEnv; targetVersion?: string; limits?: ReadLimits; feedback?: Feedback } {
  const version = options.targetVersions?.[target.name];
  // A word that is no version would be written into the target's records and compared as 0.0.0: bad input.
  if (version && !VERSION.test(version)) {
    throw new InputError(
      `${target.store.versionVariable ?? `the ${target.name} version`}=${
        JSON.stringify(version)
      } is not a version ` +
        `(expected numbers like 1.2.3)`,
    );
  }
  return {
    ...(options.env ? { env: options.env } : {}),
    ...(version ? { targetVersion: version } : {}),
    // A writer copying a same-harness source reads its records again, with the limits the call was given.
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.feedback ? { feedback: options.feedback } : {}),
  };
}
