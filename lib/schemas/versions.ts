/**
 * Which harness versions have embedded schemas, from generated metadata alone: listing them loads no schema
 * and compiles no validator, so start-up (`--version`, `--help`) pays nothing for them.
 */
import type { HarnessName } from "../ir/schema.ts";
import { SCHEMA_VERSIONS } from "../generated/schema-versions.ts";

/** Schema versions embedded for a harness, oldest first. */
export function embeddedVersions(harness: HarnessName): readonly string[] {
  return SCHEMA_VERSIONS[harness];
}
