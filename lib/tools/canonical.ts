/**
 * The canonical tool vocabulary: what a tool call *does*, independent of which harness named it. Each harness
 * maps its own tool names and arguments to and from these kinds, so a call made in one harness reaches the
 * next one as a call that harness's agent understands.
 */
export interface Edit {
  oldText: string;
  newText: string;
  replaceAll?: boolean;
}

/** One file's part of a patch: created, deleted, or changed (its edits, and where it moves, if it does). */
export type FileChange =
  | { op: "add"; path: string; content: string }
  | { op: "delete"; path: string }
  | { op: "update"; path: string; edits: Edit[]; moveTo?: string };

export interface PlanItem {
  text: string;
  status: "pending" | "in_progress" | "completed";
}

export type CanonicalCall =
  | { kind: "shell"; command: string; workdir?: string; timeoutMs?: number; description?: string }
  | { kind: "read"; path: string; offset?: number; limit?: number }
  | { kind: "write"; path: string; content: string }
  | { kind: "edit"; path: string; edits: Edit[] }
  /** Anything a patch does that is not one write or one file's edits: several files, deletes, moves. */
  | { kind: "patch"; files: FileChange[] }
  | { kind: "search"; pattern: string; path?: string; glob?: string }
  | { kind: "list"; pattern: string; path?: string }
  | { kind: "web_fetch"; url: string; prompt?: string }
  | { kind: "web_search"; query: string }
  | { kind: "plan"; items: PlanItem[] }
  | { kind: "subagent"; prompt: string; description?: string };

/** A call in one harness's own words: `input` is an object for function tools, a string for freeform ones. */
export interface HarnessCall {
  name: string;
  input: unknown;
}

export interface ToolVocabulary {
  /**
   * The harness takes some calls' input as text (Codex's freeform apply_patch). Every other harness's calls
   * take a JSON object, so a call passing through to one under a foreign name gets its text as `{ input }`.
   */
  textInput?: true;
  toCanonical(call: HarnessCall): CanonicalCall | undefined;
  /** Undefined when this harness has no tool for the kind; the call then passes through by name. */
  fromCanonical(call: CanonicalCall): HarnessCall | undefined;
}

export { isObject } from "../io/json.ts";
import type { Json } from "../io/json.ts";
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const num = (
  v: unknown,
): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/**
 * Drops undefined members so rendered arguments carry only what the call said. A plain loop: every tool call is
 * translated in the survey and again as the writer reads it, and the entries arrays cost more than the rest.
 */
export function defined<const T extends Json>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    // As Object.fromEntries would: an own member, whatever its name (assigning `__proto__` sets the prototype).
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    } else out[key] = v;
  }
  return out as T;
}

export function planStatus(value: unknown): PlanItem["status"] {
  return value === "completed" || value === "in_progress" ? value : "pending";
}
