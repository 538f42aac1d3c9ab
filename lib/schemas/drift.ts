/**
 * Validates records against the embedded, versioned JSON Schemas and collects what does not fit as drift.
 * Harnesses add record types and fields every month; a shape we have not specified is a finding to report,
 * never a reason to stop reading.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { DriftEntry } from "../ir/schema.ts";
import { EMBEDDED_SCHEMAS } from "../generated/schemas.ts";
import { compareVersions } from "./compare.ts";
import { embeddedVersions } from "./versions.ts";

const EXAMPLES = 3;

/**
 * One record type's validator, compiled on first use: compiling every embedded schema up front cost the whole
 * program (even `--version`) about a second, and a read meets only a few record types of one version.
 */
const validators = new Map<string, ValidateFunction | null>();
let ajv: Ajv | undefined;
let compiled = 0;

function validatorFor(harness: string, version: string, kind: string): ValidateFunction | undefined {
  const key = `${harness}\u0000${version}\u0000${kind}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const schema = EMBEDDED_SCHEMAS.find((s) => s.harness === harness && s.version === version)
      ?.records[kind];
    // The embedded schemas are checked by the suite, not at each run; their code is compiled as written (Ajv's
    // optimizing pass and the meta-schema check cost more than a whole session's checks save).
    ajv ??= new Ajv({
      allErrors: true,
      strict: false,
      discriminator: true,
      validateSchema: false,
      code: { optimize: false },
    });
    validate = schema ? ajv.compile(schema) : null;
    if (validate) compiled++;
    validators.set(key, validate);
  }
  return validate ?? undefined;
}

/** How many validators this process has compiled: what start-up must keep at zero. */
export function compiledValidatorCount(): number {
  return compiled;
}

/**
 * The schema version for records a harness `version` wrote: the oldest embedded one not older than it (formats
 * mostly add fields, so the next known version describes it best), else the newest we have.
 */
function schemaVersionFor(harness: string, version: string | undefined): string | undefined {
  const versions = embeddedVersions(harness);
  if (!version) return versions.at(-1);
  return versions.find((v) => compareVersions(v, version) >= 0) ?? versions.at(-1);
}

export class DriftCollector {
  private readonly found = new Map<string, DriftEntry>();
  private lastVersion: string | undefined;

  /** The schema version for each harness version met: looked up once, not once per record. */
  private readonly schemaVersions = new Map<string | undefined, string | undefined>();

  constructor(private readonly harness: string) {}

  /** Checks one record of `kind` written by harness `version` (undefined: the newest we know). */
  check(version: string | undefined, kind: string, value: unknown, example: number): void {
    if (version) this.lastVersion = version;
    const written = version ?? this.lastVersion;
    let schemaVersion = this.schemaVersions.get(written);
    if (!this.schemaVersions.has(written)) {
      schemaVersion = schemaVersionFor(this.harness, written);
      this.schemaVersions.set(written, schemaVersion);
    }
    if (!schemaVersion) return;
    const validate = validatorFor(this.harness, schemaVersion, kind);
    if (!validate) {
      this.add(schemaVersion, `record:${kind || "(none)"}`, "unknown record type", example);
      return;
    }
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      this.add(schemaVersion, `record:${kind}`, describe(error), example);
    }
  }

  private add(version: string, where: string, problem: string, example: number) {
    const key = `${version}\u0000${where}\u0000${problem}`;
    const entry = this.found.get(key);
    if (entry) {
      entry.count++;
      if (entry.examples.length < EXAMPLES) entry.examples.push(example);
    } else {
      this.found.set(key, { harness: this.harness, version, where, problem, count: 1, examples: [example] });
    }
  }

  entries(): DriftEntry[] {
    return [...this.found.values()];
  }
}

/** One line per schema error, naming the path but never the value: drift reports must not leak content. */
function describe(error: ErrorObject): string {
  const at = error.instancePath || "/";
  if (error.keyword === "additionalProperties") {
    return `unknown field ${at === "/" ? "" : at}/${
      (error.params as { additionalProperty: string }).additionalProperty
    }`;
  }
  if (error.keyword === "enum") return `unknown value at ${at}`;
  return `unexpected shape at ${at}: ${error.message ?? error.keyword}`;
}
