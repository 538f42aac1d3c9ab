/**
 * The resume handshake: one message that tells the receiving agent where the conversation came from, what was
 * in flight and what did not transfer. It carries a marker so that a later hop replaces it instead of stacking
 * a second one, and it reads the same whether or not open calls were stubbed.
 */
import type { Message, Session } from "../ir/schema.ts";
import type { ConversionReport } from "../report/report.ts";

export const HANDSHAKE_OPEN = "<session-bridge-handoff>";
export const HANDSHAKE_CLOSE = "</session-bridge-handoff>";

export interface HandshakeContext {
  target: string;
  cwd: string;
  now: Date;
}

export function handshakeText(session: Session, report: ConversionReport, context: HandshakeContext): string {
  const { meta, pending } = session;
  const lines = [
    HANDSHAKE_OPEN,
    `This conversation was moved by session-bridge from ${meta.harness}${
      meta.harnessVersion ? ` ${meta.harnessVersion}` : ""
    }` +
    ` (session ${meta.id}${meta.cwd ? `, working directory ${meta.cwd}` : ""}) to ${context.target}` +
    ` (working directory ${context.cwd}) on ${context.now.toISOString()}.`,
  ];
  if (pending.openToolCalls.length) {
    lines.push(
      `Interrupted tool calls (no result was recorded): ${
        pending.openToolCalls.map((c) => `${c.name} (${c.callId})`).join(", ")
      }.` +
        " Check their effects before repeating them.",
    );
  }
  if (pending.queuedInput.length) {
    lines.push("The user had queued these messages that were not yet answered:");
    for (const q of pending.queuedInput) lines.push(`- ${JSON.stringify(q.text)}`);
  }
  const losses = report.entries.filter((e) =>
    e.severity !== "info" && e.code !== "open-tool-calls" && e.code !== "queued-input"
  );
  if (losses.length) {
    lines.push(`Not transferred or changed: ${losses.map((e) => `${e.code} (${e.count})`).join(", ")}.`);
  }
  lines.push("Continue the work from where the conversation left off.", HANDSHAKE_CLOSE);
  return lines.join("\n");
}

/**
 * A message is a handshake from an earlier hop when it is harness context (never the user's own words: those
 * had the marker neutralized on the way in) whose text starts with the marker.
 */
export function isHandshake(message: Message): boolean {
  return message.role === "user" && message.kind === "context" &&
    message.blocks.some((b) => b.type === "text" && startsWithHandshake(b.text));
}

export function startsWithHandshake(text: string): boolean {
  return text.trimStart().startsWith(HANDSHAKE_OPEN);
}

/** A synthetic result for a call that never got one, flagged as an error so the model treats it as failed. */
export const INTERRUPTED_RESULT =
  "Interrupted: this tool call was still running when the session was moved; no result was recorded.";
