/**
 * What the live acceptance runner needs from each harness: install it, seed a session through its own binary
 * against its fake model server, resume a session there, and report what the resumed harness sent the model.
 */
export type HarnessId = "claude-code" | "codex" | "hermes";

/** One message of a model request, flattened: role and all its text (tool calls and outputs included). */
export interface SentMessage {
  role: "user" | "assistant" | "tool" | "system";
  text: string;
}

export interface Sentinels {
  /** Typed by the user in the first turn. */
  user: string;
  /** Echoed by a tool call in the second turn: appears in the tool's output. */
  tool: string;
}

export interface Seeded {
  /** The id the source harness gave the session. */
  id: string;
  /** Words only the fake model said: found in the source's own request log, never in the user's prompts. */
  assistant: string;
}

export interface HarnessUnderTest {
  id: HarnessId;
  /** session-bridge flags that point at this harness's private home. */
  homeFlags(): string[];
  seed(cwd: string, sentinels: Sentinels): Promise<Seeded>;
  resume(cwd: string, sessionId: string, prompt: string): Promise<{ ok: boolean; detail: string }>;
  /** The messages of the newest request the fake server received. */
  lastRequest(): SentMessage[];
  /** Whether the harness's own listing shows the session (picker data, session list, project bucket). */
  listed(sessionId: string, cwd: string): Promise<boolean>;
  close(): Promise<void>;
}

export type HarnessFactory = (work: string) => Promise<HarnessUnderTest>;
