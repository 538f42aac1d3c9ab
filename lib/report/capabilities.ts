/**
 * What a target can hold. The loss report is computed from the session and the target's capability set only,
 * so giving one writer a new capability cannot change what another writer discloses.
 */

export interface Capabilities {
  harness: string;
  /** Parent links, so rewound branches and sidechains can live beside the live thread. */
  threadTopology: boolean;
  /**
   * Whose reasoning proofs (signatures, encrypted payloads) the target's provider accepts back: a provider id
   * (`anthropic`, `google`: lib/ir/provider.ts), or `none` for a target of no one provider (it holds reasoning
   * as text); a registry refuses any other word (withHarness).
   */
  reasoningProvider: string;
  toolSchemas: boolean;
  systemInstructions: boolean;
  queuedInput: boolean;
  permissionPosture: boolean;
  perTurnModel: boolean;
  images: boolean;
  subagents: boolean;
  /**
   * A session of its own kind is copied record by record (every record as it was written, ids and paths
   * adjusted: Claude Code, Codex, Hermes, Gemini CLI); otherwise it is rewritten from the IR as any other
   * source is, and the report says what that drops.
   */
  copiesOwnSessions: boolean;
  /**
   * A foreign session's history before a compaction is written to disk in full, followed by the target's own
   * compaction record and the summary: the user scrolls all of it in the harness, the resumed model is sent
   * the summary and the live thread only. Without it that history is left out and only the summary is written.
   */
  keepsCompactedHistory: boolean;
  /**
   * Resumed with a history longer than its model's window, the harness compacts it itself, asking its model
   * for the summary, before its first request (seen in the live binaries: tests/fit-live.test.ts); the others
   * send it and fail on the API's refusal.
   */
  compactsOverWindow: boolean;
  /**
   * What the target does on resume with a tool call that has no result, seen in its live binary: Claude Code
   * drops the call from what it sends, Codex sends an "aborted" output of its own, Hermes a placeholder that
   * points at a summary that does not exist, Gemini CLI the call with no result at all (which Gemini's API
   * refuses), OpenCode, Copilot CLI and Pi an error result in their own words (`{ errorResult }`: OpenCode's
   * "[Tool execution was interrupted]", Copilot CLI's "Tool execution was interrupted before a result was
   * recorded. ...", Pi's "No result provided"). None shows the model what the call did, so calls are closed by
   * default.
   */
  unansweredCalls: "dropped" | "invented" | "placeholder" | "unanswered" | { errorResult: string };
}
