/**
 * Default secret redaction for events and shared transcripts. The first seven patterns are LazyBridge 1.8.3's
 * (`lazybridge/session.py` _SECRET_PATTERNS), same order and labels, so on the shared patterns our output equals
 * its output. Python's `\b` is Unicode-aware and JavaScript's is ASCII-only, so word boundaries are spelled
 * with Unicode look-arounds: `ésk-…` or `本sk-…` is one word to Python and must stay one word here.
 * The patterns after them cover what LazyBridge misses.
 *
 * Session text is hostile, so every pattern runs in time linear in its input (tests/regex-safety.test.ts runs a
 * ReDoS checker over each). Where the plain pattern would be retried from every position of a long run (`eyJ`
 * inside a run of base64url, a URL scheme inside a run of letters), a look-behind lets it start only at the
 * run's first candidate: it matches the same text, and reads each run a bounded number of times.
 */

/** A Python `str` word character: Unicode letters and numbers (str.isalnum) plus underscore. */
const W = String.raw`[\p{L}\p{N}_]`;
/** `\b` before a word character. */
const START = String.raw`(?<!${W})`;
/** `\b` anywhere, as Python means it. */
const BOUNDARY = String.raw`(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;

export interface SecretPattern {
  label: string;
  pattern: RegExp;
  /** Text kept in front of the marker (e.g. the `Bearer` keyword, a URL's user name). */
  keep?: (match: string, ...groups: string[]) => string;
}

/**
 * A match that set the group named `pass` is no secret: the pattern read that text only so that it is not read
 * again from each later position, and it stays as it is, uncounted.
 */
const PASS = "pass";

function re(source: string, flags = ""): RegExp {
  return new RegExp(source, `gu${flags}`);
}

/** LazyBridge 1.8.3's seven patterns. */
export const LAZYBRIDGE_PATTERNS: readonly SecretPattern[] = [
  {
    // Tried only at the first `eyJ` of a run of base64url (the look-behind finds an earlier one in O(distance)):
    // a later `eyJ` in the same run has fewer characters before the same dot, so where the first fails it fails.
    label: "jwt",
    pattern: re(
      String.raw`eyJ(?<!eyJ[A-Za-z0-9_-]*?eyJ)[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}`,
    ),
  },
  { label: "openai-style-key", pattern: re(String.raw`${START}sk-(?:ant-)?[A-Za-z0-9_-]{20,}`) },
  { label: "stripe-key", pattern: re(String.raw`${START}(?:pk|sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}`) },
  { label: "github-token", pattern: re(String.raw`${START}gh[pousr]_[A-Za-z0-9]{36,}`) },
  { label: "google-api-key", pattern: re(String.raw`${START}AIza[0-9A-Za-z_-]{35}${BOUNDARY}`) },
  { label: "slack-token", pattern: re(String.raw`${START}xox[abprs]-[A-Za-z0-9-]{10,}`) },
  {
    label: "bearer",
    pattern: re(String.raw`${START}(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}`, "i"),
    keep: (_match, keyword) => `${keyword} `,
  },
];

/** What LazyBridge misses; applied after its seven, so its output on its own patterns is unchanged. */
export const EXTRA_PATTERNS: readonly SecretPattern[] = [
  {
    // From a BEGIN line to the first END line after it. With no END line after the first BEGIN there is none
    // after any later BEGIN either: the rest of the text is then passed over at once instead of being searched
    // again from every later BEGIN.
    label: "private-key",
    pattern: re(
      String
        .raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?<${PASS}>[\s\S]*))`,
    ),
  },
  { label: "github-fine-grained-pat", pattern: re(String.raw`${START}github_pat_[A-Za-z0-9_]{22,}`) },
  { label: "gitlab-token", pattern: re(String.raw`${START}glpat-[A-Za-z0-9_-]{20,}`) },
  {
    label: "aws-access-key-id",
    pattern: re(String.raw`${START}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`),
  },
  {
    // A 40-character secret key is indistinguishable from other base64 on its own; it is one next to its name.
    label: "aws-secret-access-key",
    pattern: re(
      String
        .raw`(aws_?secret_?access_?key|secret_?access_?key|SecretAccessKey)(["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
      "i",
    ),
    keep: (_match, name, separator) => `${name}${separator}`,
  },
  {
    label: "slack-webhook",
    pattern: re(String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}`),
  },
  { label: "npm-token", pattern: re(String.raw`${START}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`) },
  { label: "huggingface-token", pattern: re(String.raw`${START}hf_[A-Za-z]{34}(?![A-Za-z0-9])`) },
  { label: "stripe-webhook-secret", pattern: re(String.raw`${START}whsec_[A-Za-z0-9]{24,}`) },
  { label: "sendgrid-key", pattern: re(String.raw`${START}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`) },
  {
    // scheme://user:password@host: the user name and host stay readable, the password goes. The scheme is tried
    // only from the first letter of a run of scheme characters: every start in one run reaches the same `://`.
    label: "url-password",
    pattern: re(
      String.raw`([A-Za-z](?<![A-Za-z][A-Za-z0-9+.-]*?[A-Za-z])[A-Za-z0-9+.-]*://[^\s:/@?#]+:)[^\s@/?#]+@`,
    ),
    keep: (_match, prefix) => prefix,
  },
];

export const DEFAULT_PATTERNS: readonly SecretPattern[] = [...LAZYBRIDGE_PATTERNS, ...EXTRA_PATTERNS];

/** Replaces every secret in `text` with `<redacted:LABEL>`. */
export function redactString(text: string, patterns: readonly SecretPattern[] = DEFAULT_PATTERNS): string {
  return redactCounting(text, patterns).text;
}

/** redactString, also saying how many secrets it replaced (a shared transcript reports the count). */
export function redactCounting(
  text: string,
  patterns: readonly SecretPattern[] = DEFAULT_PATTERNS,
): { text: string; count: number } {
  let out = text;
  let count = 0;
  for (const { label, pattern, keep } of patterns) {
    const marker = `<redacted:${label}>`;
    out = out.replace(pattern, (match: string, ...rest: unknown[]) => {
      const named = rest.at(-1);
      if (
        typeof named === "object" && named !== null && (named as Record<string, unknown>)[PASS] !== undefined
      ) {
        return match;
      }
      count++;
      const groups = rest.filter((g): g is string => typeof g === "string");
      const kept = keep ? keep(match, ...groups) : "";
      return label === "url-password" ? `${kept}${marker}@` : `${kept}${marker}`;
    });
  }
  return { text: out, count };
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Redacts every string value (never keys) in a JSON-shaped payload, as LazyBridge's redact_secrets does. */
export function redactSecrets<T extends JsonValue>(payload: T, patterns?: readonly SecretPattern[]): T {
  return walk(payload, patterns) as T;
}

function walk(node: JsonValue, patterns?: readonly SecretPattern[]): JsonValue {
  if (typeof node === "string") return redactString(node, patterns);
  if (Array.isArray(node)) return node.map((item) => walk(item, patterns));
  if (node !== null && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, patterns)]));
  }
  return node;
}
