/**
 * OpenCode's permission rules by meaning. A session keeps its own rules in `session.permission` (a JSON array of
 * `{permission, pattern, action}`, action `allow`, `ask` or `deny`); OpenCode evaluates a tool call against
 * its agent's rules (from the configuration) followed by the session's, the LAST rule whose permission and
 * pattern match deciding (1.18.33: `merge(agent.permission, session.permission)`, `findLast`). So rules written
 * into a session override the user's configuration for what they name, and leave the rest to it.
 *
 * The rules' words are that JSON array. What they mean comes from three permissions: `bash` (the shell, which
 * OpenCode never sandboxes), `edit` (every file change: edit, write, patch) and `webfetch`:
 *   sandbox   `bash` allowed: full access (the shell changes anything unasked); `edit` denied: read-only;
 *             else workspace-write
 *   approval  nothing asks (each allowed or denied): never; else always, since OpenCode asks on every call of
 *             a tool whose rule says ask, never by its own judgement
 *   autoEdits `edit` allowed while something still asks
 * A permission the rules do not name is taken as asking: the configuration decides it, and session-bridge does
 * not assume it allows. Rules that name neither `bash` nor `edit` (`opencode run` adds deny rules for its
 * question and plan tools alone) state no posture.
 */
import type { Posture, PostureMapping } from "../../posture/posture.ts";
import { isObject, parseEmbeddedJson } from "../../io/json.ts";

type Action = "allow" | "ask" | "deny";

interface Rule {
  permission: string;
  pattern: string;
  action: Action;
}

const ACTIONS: readonly string[] = ["allow", "ask", "deny"];

/** The rules a session's `permission` column holds; an entry that is no rule is skipped, as it matches nothing. */
function parseRules(words: string): Rule[] | undefined {
  const value = parseEmbeddedJson(words);
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((r): Rule[] =>
    isObject(r) && typeof r.permission === "string" && typeof r.pattern === "string" &&
      typeof r.action === "string" && ACTIONS.includes(r.action)
      ? [{ permission: r.permission, pattern: r.pattern, action: r.action as Action }]
      : []
  );
}

/**
 * OpenCode's wildcard match of a rule's permission against a tool's (`*` any run, `?` one character), greedy
 * with one backtrack point: linear in the rule's length for the short names it is asked about.
 */
export function wildcardMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/** What the rules say for every use of `permission` (pattern `*`), or undefined when no rule says. */
const actionFor = (rules: readonly Rule[], permission: string): Action | undefined =>
  rules.findLast((r) => r.pattern === "*" && wildcardMatches(r.permission, permission))?.action;

function rulesPosture(words: string): Posture | undefined {
  const rules = parseRules(words);
  if (!rules) return undefined;
  const stated = { bash: actionFor(rules, "bash"), edit: actionFor(rules, "edit") };
  if (!stated.bash && !stated.edit) return undefined;
  const bash = stated.bash ?? "ask";
  const edit = stated.edit ?? "ask";
  const approval = bash !== "ask" && edit !== "ask" ? "never" : "always";
  return {
    approval,
    sandbox: bash === "allow" ? "full-access" : edit === "deny" ? "read-only" : "workspace-write",
    ...(edit === "allow" && approval === "always" ? { autoEdits: true } : {}),
  };
}

/**
 * The rules for a posture, each no wider than it: the shell is allowed only where nothing asks and nothing is
 * sandboxed (OpenCode cannot sandbox it), denied where nothing may change and nothing may ask, else it asks;
 * web fetches as the shell; edits denied when read-only, allowed when nothing asks or edits are accepted.
 */
export function openCodeRules(posture: Posture): Rule[] {
  if (posture.native?.harness === "opencode") {
    const restored = parseRules(posture.native.words);
    if (restored) return restored;
  }
  const unasked = posture.approval === "never";
  const bash: Action = unasked && posture.sandbox === "full-access"
    ? "allow"
    : unasked && posture.sandbox === "read-only"
    ? "deny"
    : "ask";
  const edit: Action = posture.sandbox === "read-only"
    ? "deny"
    : unasked || posture.autoEdits
    ? "allow"
    : "ask";
  return [
    { permission: "bash", pattern: "*", action: bash },
    { permission: "edit", pattern: "*", action: edit },
    { permission: "webfetch", pattern: "*", action: bash },
  ];
}

export const openCodePosture: PostureMapping = {
  describe: "OpenCode session permission rules",
  // Told nothing, OpenCode's agents allow every tool (1.18.33's defaults: `"*": "allow"`, asking only for a
  // loop, files outside the project and `.env` files), and the shell is never sandboxed.
  own: { approval: "never", sandbox: "full-access" },
  toPosture: rulesPosture,
  words: (posture) => JSON.stringify(openCodeRules(posture)),
};

/** The words a session's `permission` column states a posture in, if it states one. */
export function sessionPostureWords(permission: string | null | undefined): string | undefined {
  return permission && rulesPosture(permission) ? permission : undefined;
}
