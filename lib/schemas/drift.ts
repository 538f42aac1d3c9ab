/**
 * Validates records against the embedded, versioned JSON Schemas and collects what does not fit as drift.
 * Harnesses add record types and fields every month; a shape we have not specified is a finding to report,
 * never a reason to stop reading.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { DriftEntry, HarnessName } from "../ir/schema.ts";
import { EMBEDDED_SCHEMAS } from "../generated/schemas.ts";

const EXAMPLES = 3;

/** Schema versions embedded for a harness, oldest first, with their record-type schemas. */
interface VersionSet {
  version: string;
  records: Map<string, ValidateFunction>;
}

const cache = new Map<HarnessName, VersionSet[]>();

function versionSets(harness: HarnessName): VersionSet[] {
  let sets = cache.get(harness);
  if (!sets) {
    const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
    sets = EMBEDDED_SCHEMAS.filter((s) => s.harness === harness)
      .map((s) => ({
        version: s.version,
        records: new Map(Object.entries(s.records).map(([type, schema]) => [type, ajv.compile(schema)])),
      }))
      .sort((a, b) => compareVersions(a.version, b.version));
    cache.set(harness, sets);
  }
  return sets;
}

export function embeddedVersions(harness: HarnessName): string[] {
  return versionSets(harness).map((s) => s.version);
}

/**
 * The schema set for records a harness `version` wrote: the oldest embedded set not older than it (formats
 * mostly add fields, so the next known version describes it best), else the newest we have.
 */
function setFor(harness: HarnessName, version: string | undefined): VersionSet | undefined {
  const sets = versionSets(harness);
  if (!version) return sets.at(-1);
  return sets.find((s) => compareVersions(s.version, version) >= 0) ?? sets.at(-1);
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

export class DriftCollector {
  private readonly found = new Map<string, DriftEntry>();
  private lastVersion: string | undefined;

  constructor(private readonly harness: HarnessName) {}

  /** Checks one record of `kind` written by harness `version` (undefined: the newest we know). */
  check(version: string | undefined, kind: string, value: unknown, example: number): void {
    if (version) this.lastVersion = version;
    const set = setFor(this.harness, version ?? this.lastVersion);
    if (!set) return;
    const validate = set.records.get(kind);
    if (!validate) {
      this.add(set.version, `record:${kind || "(none)"}`, "unknown record type", example);
      return;
    }
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      this.add(set.version, `record:${kind}`, describe(error), example);
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
