/**
 * What `certify` drives: each registered harness through its own binary, in one of three modes. A harness's
 * driver (lib/harnesses/<h>/certify/) knows how to run its binary; everything about pairs, sentinels and
 * reports is shared. This is the contract between the two, below the harnesses: it names none of them.
 */
import type { FakeWindow } from "./fake-servers/window.ts";

/** A registered harness's name. */
export type HarnessId = string;

/**
 * - `full`: the real binaries against fake model servers on 127.0.0.1; the resumed harness's request to the
 *   model must carry the sentinels in the right roles.
 * - `structure`: no model at all; sessions seeded from captured fixtures, the handoff's placement, rows and
 *   content checked, and the target's own listing.
 * - `real`: the user's own providers; the resumed agent is asked to recall the sentinels.
 */
export type Mode = "full" | "structure" | "real";
export const MODES: readonly Mode[] = ["full", "structure", "real"];

/**
 * One part of a conversation as a model saw it (or a store holds it), flattened to its text: the user's or the
 * model's words, a tool call the model made (name and arguments), a tool's output, or harness context.
 */
export interface SentMessage {
  role: "user" | "assistant" | "tool_call" | "tool" | "system";
  text: string;
}

/** What must survive every hop: the user's words, the model's own words, and a tool call's output. */
export interface Expected {
  user: string;
  /** Appears nowhere in the user's words. */
  assistant: string;
  tool: string;
}

/**
 * One part of the conversation a resumed model must be sent exactly once: text containing `needle` in one of
 * `roles`, after the part at index `after` of the same list (none for the first).
 */
export interface ExpectedPart {
  /** What it is, as a failure reason names it: "typed prompt 1", "interrupted call", "queued input". */
  label: string;
  roles: SentMessage["role"][];
  needle: string;
  after?: number;
}

/** The two seeding turns: the first states the user sentinel, the second makes the model run a command. */
export interface SeedPrompts {
  first: string;
  tool: string;
  /** The exact shell command the second turn asks for (for harnesses that allow tools by command). */
  toolCommand: string;
}

/**
 * What an interrupted seeding adds: a turn whose shell call runs long and is cancelled by the harness's own
 * interrupt key while it runs, and words the person types while the agent is busy (queued input).
 */
export interface InterruptPrompts extends SeedPrompts {
  /** The prompt that makes the fake model call the shell with `slowCommand` (`TOOL: <command>`). */
  slow: string;
  /** A command that runs far longer than the seeding waits (so it is still running when cancelled). */
  slowCommand: string;
  /** Typed while the slow call runs: it must reach the target's model once, after the interrupted call. */
  queued: string;
}

export interface Seeded {
  /** The id the source harness gave the session. */
  id: string;
  /** What the model answered to the first turn: the assistant sentinel is taken from it. */
  firstReply: string;
}

export interface Turn {
  ok: boolean;
  /** Why it failed (exit code, the tail of stderr); empty when it did not. */
  detail: string;
  /** The agent's final answer text. */
  reply: string;
}

export interface HarnessSetup {
  /** A private folder for this harness's home, temp dir and request log. */
  work: string;
  /** The harness executable. */
  bin: string;
  version: string;
  mode: Mode;
  /** The user's environment (real mode takes providers and credentials from it). */
  env: NodeJS.ProcessEnv;
  /** Every registered harness's home variable: none of the user's reaches a harness run in a private home. */
  homeVariables: readonly string[];
  /** A context window the fake model server enforces (full mode; absent: it takes any request). */
  window?: FakeWindow;
}

export interface HarnessUnderTest {
  id: HarnessId;
  /** This harness's private home, by harness name, as session-bridge's home flags name it (HomeFlags). */
  homes(): Readonly<Record<HarnessId, string | undefined>>;
  /**
   * Makes the private home look like that of a user who has run the harness before (its stores exist and it
   * has a session elsewhere), since session-bridge writes for the harness version it finds there.
   */
  warmUp(cwd: string): Promise<void>;
  /** One-shot runs (`-p`, `exec`, `-q`): the first turn, then a resumed turn that runs the shell tool. */
  seed(cwd: string, prompts: SeedPrompts): Promise<Seeded>;
  /**
   * The same two turns typed by a person into the real interactive TUI (driven through tmux), then the TUI
   * is left the way a person leaves it.
   */
  seedInteractive(cwd: string, prompts: SeedPrompts): Promise<Seeded>;
  /**
   * Typed into the TUI: the first turn, the tool turn, then `prompts.slow`; while its shell call runs the
   * person types `prompts.queued` and presses the harness's interrupt key, then leaves the TUI. The session
   * ends with the slow call open (or closed by the harness's own interruption record) and the queued words
   * recorded as the harness records them.
   */
  seedInterrupted(cwd: string, prompts: InterruptPrompts): Promise<Seeded>;
  resume(cwd: string, sessionId: string, prompt: string): Promise<Turn>;
  /** How many requests the fake model server has received (full mode only). */
  requestCount(): number;
  /** The messages of the newest request the fake model server received (full mode only). */
  lastRequest(): SentMessage[];
  /**
   * The variables that locate this harness's configuration outside its home, as its private runs set them
   * (OpenCode's XDG_CONFIG_HOME): a handoff into it is made with them, as a user's shell gives session-bridge
   * the environment it gives the harness, so the model that configuration names is found. Absent: a harness
   * whose configuration is in its home.
   */
  configEnv?(): Readonly<Record<string, string>>;
  /** Whether the harness's own listing shows the session (picker data, `sessions list`, project bucket). */
  listed(sessionId: string, cwd: string): Promise<boolean>;
  /**
   * The captured session structure-only certify seeds from, for a harness whose sample the binary does not
   * embed (a built-in harness's descriptor has its own, `certify.samples()`): its file's name and its lines.
   */
  sample?(version: string): { source: string; lines: string[] };
  close(): Promise<void>;
}

export interface HarnessDriver {
  id: HarnessId;
  /** The executable's name on PATH. */
  command: string;
  open(setup: HarnessSetup): Promise<HarnessUnderTest>;
}
