/**
 * The long-run mutator's texts: megabytes of one character class, and the strings a ReDoS checker builds
 * against the redactor's patterns (lib/observe/redact.ts), each the same length as a text of ordinary prose it
 * is timed against. A pattern that retries a run from each of its characters is quadratic on exactly these.
 */

export interface LongRun {
  /** How a report names it: `letters`, `jwt-without-dots`. */
  name: string;
  /** Written once, in front of the repeated unit (an attack's lead-in). */
  prefix?: string;
  /** Repeated to the run's size. */
  unit: string;
}

/** Runs of one character class. */
const CLASSES: readonly LongRun[] = [
  { name: "letters", unit: "a" },
  { name: "digits", unit: "7" },
  // What a URL scheme is made of: `[A-Za-z][A-Za-z0-9+.-]*` before a `://` that never comes.
  { name: "scheme-characters", unit: "a+.-" },
  { name: "whitespace", unit: " \t\n" },
  { name: "equals-signs", unit: "=" },
  { name: "base64", unit: "QWxhZGRpbjpvcGVuIHNlc2FtZQ+/" },
  { name: "pem-prefixes", unit: "-----BEGIN " },
  { name: "backslashes", unit: "\\" },
  { name: "quotes", unit: '"' },
  { name: "unicode", unit: "\u00e9\u672c\u{1F600}\u202e" },
];

/** The attack strings for the redactor's patterns: a lead-in the pattern starts on, then what it cannot end. */
const ATTACKS: readonly LongRun[] = [
  // url-password: a scheme, a user name, a password that never meets its `@`.
  { name: "url-without-at", prefix: "a://user:", unit: "p" },
  { name: "url-schemes-without-slashes", unit: "a:" },
  // jwt: one header and no dots, or a header at every third character.
  { name: "jwt-without-dots", prefix: "eyJ", unit: "A" },
  { name: "jwt-headers", unit: "eyJ" },
  // private-key: a header opening a block no END closes, again and again, or one followed by spaces.
  { name: "pem-header-spaces", prefix: "-----BEGIN ", unit: " " },
  { name: "pem-blocks-without-end", unit: "-----BEGIN PRIVATE KEY-----\n" },
  { name: "bearer-spaces", prefix: "Bearer", unit: " " },
  { name: "aws-secret-name-spaces", prefix: "aws_secret_access_key", unit: " " },
];

export const LONG_RUNS: readonly LongRun[] = [...CLASSES, ...ATTACKS];

/** What a hostile run is measured against: prose, as people and tools write it. */
export const ORDINARY: LongRun = {
  name: "ordinary text",
  unit: "The quick brown fox refactors the parser module, re-runs the suite and reads the log. ",
};

/** The run `bytes` long in UTF-8 (a unit is never cut in two, so it may be a few bytes shorter). */
export function longRunText(run: LongRun, bytes: number): string {
  const prefix = run.prefix ?? "";
  const count = Math.max(1, Math.floor((bytes - Buffer.byteLength(prefix)) / Buffer.byteLength(run.unit)));
  return prefix + run.unit.repeat(count);
}
