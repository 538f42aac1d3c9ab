/**
 * Who wrote a Claude Code user record, by its `origin` (2.1.x). The kinds are the ones the 2.1.328 binary
 * knows: its own switch over a message origin (the function that maps an origin to a hook's source) names
 * human, plugin, channel, task-notification, peer, coordinator, unclassified, observer, auto-continuation,
 * observer-activity, slack-ping and voice-call. Only what the harness or another program made is context; a
 * person's words (typed, spoken, or of a source the binary itself could not classify) stay the user's words.
 */
import { isObject } from "../../io/json.ts";

export type OriginMeaning = "person" | "harness";

export const ORIGIN_KINDS: Readonly<Record<string, OriginMeaning>> = {
  /** Typed into the TUI (or sent as the person's prompt by `-p`, the SDK, a remote control bridge). */
  human: "person",
  /** What the person said in a voice call, transcribed (recorded with isMeta, still the person's words). */
  "voice-call": "person",
  /**
   * A prompt whose source the binary did not record: typed or queued input of older paths and forwarded
   * queue entries. Never provably the harness's own, so kept as the person's words.
   */
  unclassified: "person",
  /** Background task results, scheduled triggers, messages relayed from other sessions. */
  "task-notification": "harness",
  /** The harness continuing a turn on its own. */
  "auto-continuation": "harness",
  /** A message sent by another Claude Code session. */
  peer: "harness",
  /** A coordinator agent's instructions to a worker. */
  coordinator: "harness",
  /** A message pushed by an MCP channel server. */
  channel: "harness",
  /** Text a plugin appended (unless it speaks for the person: `asUser`). */
  plugin: "harness",
  observer: "harness",
  "observer-activity": "harness",
  "slack-ping": "harness",
};

/**
 * The meaning of a record's `origin`: undefined when there is none. A kind this table does not know is taken
 * as the person's words (dropping a prompt is worse than showing a notification as one); the schemas report
 * it as drift.
 */
export function originMeaning(origin: unknown): OriginMeaning | undefined {
  if (!isObject(origin)) return undefined;
  const kind = typeof origin.kind === "string" ? origin.kind : "";
  if (kind === "plugin" && origin.asUser === true) return "person";
  return ORIGIN_KINDS[kind] ?? "person";
}
