/**
 * A failed tool result in a harness that records no failure flag (Hermes stores tool output as plain text):
 * the failure is said in the output's first line, which the target's model reads, and a later hop turns it
 * back into the flag. The same words Codex's writer uses, so a result keeps its flag across every hop.
 */
import type { ToolResultPart } from "./schema.ts";

export const FAILED_MARKER = "[tool call failed]\n";

/** The flag back from marked output: the marker is removed, the rest of the output kept as it was. */
export function unmarkFailure(parts: ToolResultPart[]): { parts: ToolResultPart[]; failed: boolean } {
  const first = parts[0];
  if (first?.type !== "text" || !first.text.startsWith(FAILED_MARKER)) return { parts, failed: false };
  const rest = first.text.slice(FAILED_MARKER.length);
  return {
    parts: rest || parts.length === 1 ? [{ type: "text", text: rest }, ...parts.slice(1)] : parts.slice(1),
    failed: true,
  };
}

/** Output parts with the failure said first, when the result failed. */
export function markFailure(parts: ToolResultPart[], failed: boolean): ToolResultPart[] {
  if (!failed) return parts;
  const first = parts[0];
  return first?.type === "text"
    ? [{ type: "text", text: FAILED_MARKER + first.text }, ...parts.slice(1)]
    : [{ type: "text", text: FAILED_MARKER }, ...parts];
}
