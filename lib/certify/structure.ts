/**
 * Structure-only certification needs no model: a pair is seeded from a session captured from the real source
 * harness (embedded in the binary), and what the handoff wrote is read back with session-bridge's own reader of
 * the target format and checked for the same sentinels as a live run: the user's words, the assistant's words
 * and a tool call with its output, each in its role.
 */
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Session } from "../ir/schema.ts";
import type { Expected, SentMessage } from "../certify-kit/driver.ts";

/** Writes `sample` (a captured session: its file's name and its lines) into `dir`; returns its path. */
export function writeSample(sample: { source: string; lines: string[] }, dir: string): string {
  const path = join(dir, basename(sample.source));
  writeFileSync(path, `${sample.lines.join("\n")}\n`);
  return path;
}

/** A session's live thread as parts: harness context as system, tool calls and outputs in their own roles. */
export function sessionParts(session: Session): SentMessage[] {
  return session.messages.flatMap((m) =>
    m.blocks.flatMap((b): SentMessage[] => {
      const role = m.kind === "context" ? "system" : m.role === "tool" ? "tool" : m.role;
      switch (b.type) {
        case "text":
          return [{ role, text: b.text }];
        case "tool_call":
          return [{ role: "tool_call", text: JSON.stringify({ name: b.name, input: b.input }) }];
        case "tool_result":
          return [{
            role: "tool",
            text: b.content.map((part) => (part.type === "text" ? part.text : "")).join("\n"),
          }];
        default:
          return [];
      }
    })
  );
}

/**
 * The sentinels a captured session carries: its first user words, its last assistant words (which must not be
 * the user's), and the longest word a tool call's arguments and its output share (the echoed text: outputs
 * come wrapped differently by each harness, as plain text or as JSON).
 */
/** An opening or closing tag, as harnesses wrap their own context. */
const TAG = /<\/?[A-Za-z][\w-]*>/;

export function sampleSentinels(parts: SentMessage[]): Expected {
  const texts = (role: SentMessage["role"]) => parts.filter((p) => p.role === role).map((p) => p.text.trim());
  const userWords = texts("user");
  const user = userWords[0];
  // Not words holding a tag (a tool's output the model echoed, wrapped in the harness's <untrusted_context>):
  // a handoff makes tags inert in moved text, so they would not arrive as written.
  const assistant = texts("assistant").findLast((t) =>
    t !== "" && !TAG.test(t) && !userWords.some((u) => u.includes(t))
  );
  const calls = texts("tool_call").join("\n");
  const tool = texts("tool").flatMap((t) => t.match(/[\w.-]{6,}/g) ?? [])
    .filter((word) => calls.includes(word))
    .sort((a, b) => b.length - a.length)[0];
  if (!user || !assistant || !tool) {
    throw new Error(
      `the sample has no ${
        !user ? "user words" : !assistant ? "assistant words" : "tool call with its output"
      }`,
    );
  }
  return { user, assistant, tool };
}
