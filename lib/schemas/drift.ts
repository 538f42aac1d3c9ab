/**
 * Validates records against the embedded, versioned JSON Schemas and collects what does not fit as drift.
 * Harnesses add record types and fields every month; a shape we have not specified is a finding to report,
 * never a reason to stop reading.
 */
import type { ErrorObject } from "ajv";
import type { DriftEntry } from "../ir/schema.ts";
import type { RecordValidator, ValidatorTable } from "../generated/validator-table.ts";
import { compareVersions } from "./compare.ts";
import { embeddedVersions } from "./versions.ts";

const EXAMPLES = 3;

let made = 0;

/** How many versions' validators this process has made: what start-up must keep at zero. */
export function madeValidatorSets(): number {
  return made;
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

  /** Each schema version's validators, once made. */
  private readonly made = new Map<string, Readonly<Record<string, RecordValidator>>>();

  constructor(private readonly harness: string, private readonly validators: ValidatorTable) {}

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
    const validate = this.validatorsOf(schemaVersion)[kind];
    if (!validate) {
      this.add(schemaVersion, `record:${kind || "(none)"}`, "unknown record type", example);
      return;
    }
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      this.add(schemaVersion, `record:${kind}`, describe(error), example);
    }
  }

  private validatorsOf(version: string): Readonly<Record<string, RecordValidator>> {
    let set = this.made.get(version);
    if (!set) {
      set = this.validators[version]?.() ?? {};
      made++;
      this.made.set(version, set);
    }
    return set;
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
