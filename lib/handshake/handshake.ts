/**
 * The resume handshake: one message that tells the receiving agent where the conversation came from, what was
 * in flight and what did not transfer. It carries a marker so that a later hop replaces it instead of stacking
 * a second one; what it said that is still pending is carried into its replacement (see carry.ts), so each
 * fact reaches the model once, on every hop.
 */
import type { Message, OpenToolCall } from "../ir/schema.ts";
import type { SessionHead } from "../ir/stream.ts";
import type { ConversionReport } from "../report/report.ts";
import { escapeControls } from "../io/control-characters.ts";

export const HANDSHAKE_OPEN = "<session-bridge-handoff>";
export const HANDSHAKE_CLOSE = "</session-bridge-handoff>";

/** Headings and item prefixes, shared with the parser in carry.ts that reads an earlier hop's handshake. */
export const CALLS_HEADING =
  "Interrupted tool calls (still running when the session stopped; no result was recorded):";
export const QUEUED_HEADING = "The user had queued these messages that were not yet answered:";
export const EARLIER_HEADING =
  "An earlier handoff left these pending and the conversation went on after it; check whether they were dealt with:";
export const EARLIER_CALL = "interrupted call: ";
export const EARLIER_QUEUED = "queued message: ";

/**
 * Report entries the model is not told about: notes for the operator (shapes the schemas do not describe,
 * reading notices, which model and why, proofs only a provider reads) and what the handshake itself says.
 */
const OPERATOR_ONLY = new Set([
  "drift",
  "notices",
  "model",
  "open-tool-calls",
  "queued-input",
  "queued-input-placed",
  "pending-carried",
  "reasoning-proofs-dropped",
  "reasoning-proofs-unproven",
]);

export interface HandshakeContext {
  target: string;
  cwd: string;
  now: Date;
}

export function handshakeText(
  session: SessionHead,
  report: ConversionReport,
  context: HandshakeContext,
): string {
  const { meta, pending } = session;
  const lines = [
    HANDSHAKE_OPEN,
    `This conversation was moved by session-bridge from ${meta.harness}${
      meta.harnessVersion ? ` ${meta.harnessVersion}` : ""
    }` +
    ` (session ${meta.id}${meta.cwd ? `, working directory ${meta.cwd}` : ""}) to ${context.target}` +
    ` (working directory ${context.cwd}) on ${context.now.toISOString()}.`,
  ];
  const calls = pending.openToolCalls.filter((c) => !c.earlier);
  if (calls.length) {
    lines.push(
      CALLS_HEADING,
      ...calls.map((c) => `- ${callLine(c)}`),
      "Check their effects before repeating them.",
    );
  }
  const queued = pending.queuedInput.filter((q) => !q.earlier);
  if (queued.length) lines.push(QUEUED_HEADING, ...queued.map((q) => `- ${quoted(q.text)}`));
  // Queued prompts put in the thread itself (pipeline/queued.ts): said where they are, not repeated.
  const placed = report.entries.find((e) => e.code === "queued-input-placed")?.count ?? 0;
  if (placed) lines.push(queuedNote(placed));
  const earlier = [
    ...pending.openToolCalls.filter((c) => c.earlier).map((c) => `- ${EARLIER_CALL}${callLine(c)}`),
    ...pending.queuedInput.filter((q) => q.earlier).map((q) => `- ${EARLIER_QUEUED}${quoted(q.text)}`),
  ];
  if (earlier.length) lines.push(EARLIER_HEADING, ...earlier);
  const losses = report.entries.filter((e) => e.severity !== "info" && !OPERATOR_ONLY.has(e.code));
  if (losses.length) {
    lines.push(`Not transferred or changed: ${losses.map((e) => `${e.code} (${e.count})`).join(", ")}.`);
  }
  lines.push("Continue the work from where the conversation left off.", HANDSHAKE_CLOSE);
  return lines.join("\n");
}

/** What the handshake says of queued prompts the thread carries as the user's last messages. */
export const queuedNote = (count: number) =>
  count === 1
    ? "The user typed the last user message before this note while the agent was busy; it was never answered."
    : `The user typed the last ${count} user messages before this note while the agent was busy; they were never answered.`;

/** `name (id)`, and what it ran when the call itself is not in the thread the target receives. */
function callLine(call: OpenToolCall): string {
  return `${call.name} (${call.callId})${
    call.command && !call.messageUid ? `: ${quoted(call.command)}` : ""
  }`;
}

/** A JSON string literal with control and bidi characters escaped too: one line, read back exactly. */
function quoted(text: string): string {
  return escapeControls(JSON.stringify(text)).text;
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
