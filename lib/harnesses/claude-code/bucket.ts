/**
 * The project folder ("bucket") Claude Code files a session under. `claude --resume` only looks in the bucket of
 * the directory it runs in, so a session placed one character off is invisible. The rule was read from the
 * 2.1.328 binary and checked against folders it created (fixtures/claude-code/2.1.328/BUCKETS.md), and against
 * 1.0.128 (fixtures/claude-code/1.0.128/buckets.observed.json), which never cuts a long name.
 */
import { compareVersions } from "../../schemas/compare.ts";

const MAX_BUCKET = 200;
/** What a file name may be on the file systems Claude runs on; a longer bucket cannot be created. */
export const MAX_BUCKET_BYTES = 255;

/**
 * The first Claude Code that cuts and hashes bucket names longer than 200 characters: found by reading the
 * bucket function in the `cli.js` of the npm releases from 1.0.128 to 2.1.112 (the last with a `cli.js`);
 * 2.1.45 and older keep the whole name (2.1.46 was never published).
 */
export const FIRST_HASHED_BUCKET_VERSION = "2.1.47";
const OVERRIDE = /^[A-Za-z0-9_-]{1,64}$/;
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * Every UTF-16 code unit outside [A-Za-z0-9] becomes '-' (runs are not collapsed; an astral character becomes
 * two). Past 200 characters the name is cut and suffixed with the base-36 absolute Java string hash of the
 * full, unsanitized path, by the Claude Code `version` the session is for (undefined: a current one).
 */
export function bucketName(cwd: string, version?: string): string {
  const sanitized = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  const hashes = version === undefined || compareVersions(version, FIRST_HASHED_BUCKET_VERSION) >= 0;
  if (sanitized.length <= MAX_BUCKET || !hashes) return sanitized;
  return `${sanitized.slice(0, MAX_BUCKET)}-${Math.abs(javaStringHash(cwd)).toString(36)}`;
}

/** Java's String.hashCode over UTF-16 code units, wrapped to int32, as Claude Code computes it. */
export function javaStringHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = ((h << 5) - h + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * With CLAUDE_CONFIG_DIR set, a valid CLAUDE_CODE_PROJECT_DIR_NAME replaces the bucket for every cwd; the
 * binary ignores a malformed one, and so do we.
 */
export function bucketFor(cwd: string, env: NodeJS.ProcessEnv, version?: string): string {
  const override = env.CLAUDE_CONFIG_DIR ? env.CLAUDE_CODE_PROJECT_DIR_NAME : undefined;
  if (override && OVERRIDE.test(override) && !WINDOWS_DEVICE.test(override)) return override;
  return bucketName(cwd, version);
}
