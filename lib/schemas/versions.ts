/**
 * Which harness versions have embedded schemas, from generated metadata alone: listing them loads no schema
 * and compiles no validator, so start-up (`--version`, `--help`) pays nothing for them.
 */
import { SCHEMA_VERSIONS } from "../generated/schema-versions.ts";

/** Schema versions embedded for a harness, oldest first. */
export function embeddedVersions(harness: string): readonly string[] {
  return SCHEMA_VERSIONS[harness] ?? [];
}
