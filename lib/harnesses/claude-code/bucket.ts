/**
 * The project folder ("bucket") Claude Code files a session under. `claude --resume` only looks in the bucket of
 * the directory it runs in, so a session placed one character off is invisible.
 */
import { wyhash } from "../../hash/wyhash.ts";

const MAX_BUCKET = 200;

/**
 * Every UTF-16 code unit outside [A-Za-z0-9] becomes '-' (runs are not collapsed; an astral character becomes
 * two). Past 200 characters the name is cut and suffixed with the base-36 wyhash of the full path, as the Bun
 * build of Claude Code does.
 */
export function bucketName(cwd: string): string {
  const sanitized = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  if (sanitized.length <= MAX_BUCKET) return sanitized;
  return `${sanitized.slice(0, MAX_BUCKET)}-${wyhash(cwd).toString(36)}`;
}
