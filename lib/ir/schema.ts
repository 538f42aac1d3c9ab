/**
 * The intermediate representation every reader produces and every writer consumes. It is the union of what the
 * three harnesses can express, so a reader never has to throw anything away: what has no typed home here is
 * kept as a `raw` block or a passthrough record and reported, never dropped.
 *
 * Written in zod so one text is both the IR's types (`z.infer`) and its validator, but only the suite runs the
 * validator: it checks every reader's output over every captured fixture (tests/ir-schema.test.ts). The program
 * itself imports this module for its types only, so the binary carries no zod (tests/binary-contents.test.ts):
 * the readers build the IR, and validating it again on every load would cost start-up and find nothing the
 * suite has not. A caller handing the library an IR it built itself can run `Session.parse` on it.
 */
import { z } from "zod";
import { PROVIDER_ID } from "./provider.ts";

/**
 * A harness's name. The IR names no harness of its own: which names exist is the registry's business
 * (lib/harnesses/registry.ts), and the edge checks a name against the registry it runs with.
 */
export const HarnessRef = z.string().min(1);

/**
 * Where a message or record came from. Instead of a second parsed copy of the source record we keep its byte
 * range, so a same-harness writer can copy untouched records byte for byte by reading them back.
 */
export const Origin = z.object({
  harness: HarnessRef,
  path: z.string(),
  offset: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
  /** The native record type, e.g. `assistant` or `response_item`. */
  type: z.string(),
});
export type Origin = z.infer<typeof Origin>;

export const TextBlock = z.object({ type: z.literal("text"), text: z.string() });

export const ReasoningBlock = z.object({
  type: z.literal("reasoning"),
  text: z.string(),
  /** Provider-bound proof (Anthropic thinking signature); only ever sent back to the provider that made it. */
  signature: z.string().optional(),
  /** Opaque encrypted reasoning (OpenAI `encrypted_content`, Anthropic `redacted_thinking` data). */
  encrypted: z.string().optional(),
  /**
   * Which provider family minted `signature` / `encrypted`: a provider id (`anthropic`, `openai`, `google`;
   * `other` when the reader cannot tell), named by the harness that read it, never listed here.
   */
  provider: z.string().regex(PROVIDER_ID),
  /**
   * Put back from session-bridge's provenance: this proof was read from its provider's own harness on an
   * earlier hop, which proves where it came from even when the harness in between could not.
   */
  restored: z.boolean().optional(),
});

/** A tool call exactly as its own harness wrote it, kept so a round trip back restores it unchanged. */
export const NativeToolCall = z.object({ harness: HarnessRef, name: z.string(), input: z.unknown() });
export type NativeToolCall = z.infer<typeof NativeToolCall>;

export const ToolCallBlock = z.object({
  type: z.literal("tool_call"),
  id: z.string(),
  name: z.string(),
  /** An object for function tools; a string for freeform tools (Codex's apply_patch grammar tool). */
  input: z.unknown(),
  /** Set when `name`/`input` were translated from another harness's vocabulary. */
  native: NativeToolCall.optional(),
});

export const ImageBlock = z.object({
  type: z.literal("image"),
  mediaType: z.string().optional(),
  /** Base64 payload, when the image is inline. */
  data: z.string().optional(),
  url: z.string().optional(),
});

/** Anything a reader met that has no typed home: kept whole, rendered only by its own harness, always reported. */
export const RawBlock = z.object({
  type: z.literal("raw"),
  harness: HarnessRef,
  kind: z.string(),
  value: z.unknown(),
});

export const ToolResultPart = z.discriminatedUnion("type", [TextBlock, ImageBlock, RawBlock]);

export const ToolResultBlock = z.object({
  type: z.literal("tool_result"),
  callId: z.string(),
  isError: z.boolean(),
  content: z.array(ToolResultPart),
});

export const Block = z.discriminatedUnion("type", [
  TextBlock,
  ReasoningBlock,
  ToolCallBlock,
  ToolResultBlock,
  ImageBlock,
  RawBlock,
]);
export type Block = z.infer<typeof Block>;
export type TextBlock = z.infer<typeof TextBlock>;
export type ReasoningBlock = z.infer<typeof ReasoningBlock>;
export type ToolCallBlock = z.infer<typeof ToolCallBlock>;
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;
export type ToolResultPart = z.infer<typeof ToolResultPart>;
export type RawBlock = z.infer<typeof RawBlock>;

export const Role = z.enum(["user", "assistant", "system", "tool"]);
export type Role = z.infer<typeof Role>;

export const Usage = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cacheReadTokens: z.number().nonnegative(),
  cacheWriteTokens: z.number().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

export const Message = z.object({
  uid: z.string(),
  parentUid: z.string().nullable(),
  role: Role,
  /**
   * `turn` is conversation; `context` is text the harness injected (environment blocks, AGENTS.md, skill
   * listings) that the next harness must not mistake for the user's words; `summary` replaces compacted history.
   */
  kind: z.enum(["turn", "context", "summary"]),
  timestamp: z.string().optional(),
  model: z.string().optional(),
  /** The provider's own message id (several records may share one when a message was split). */
  providerMessageId: z.string().optional(),
  /** Set on messages that belong to a subagent / sidechain rather than the main thread. */
  agentId: z.string().optional(),
  blocks: z.array(Block),
  usage: Usage.optional(),
  origin: Origin.optional(),
});
export type Message = z.infer<typeof Message>;

export const Thread = z.object({
  id: z.string(),
  /** Why this thread is kept apart from the live one. */
  kind: z.enum(["abandoned-branch", "sidechain", "subagent", "compacted"]),
  messages: z.array(Message),
});
export type Thread = z.infer<typeof Thread>;

export const ToolSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.unknown().optional(),
});

export const OpenToolCall = z.object({
  callId: z.string(),
  name: z.string(),
  /** The message that made the call; empty when the call is known only from an earlier hop's handshake. */
  messageUid: z.string(),
  /** What the call ran, as an earlier handshake stated it (kept when the call itself is not in the thread). */
  command: z.string().optional(),
  /** Named by an earlier hop's handshake, and the conversation went on after that handshake. */
  earlier: z.boolean().optional(),
});
export type OpenToolCall = z.infer<typeof OpenToolCall>;

export const QueuedInput = z.object({
  text: z.string(),
  timestamp: z.string().optional(),
  /** Queued according to an earlier hop's handshake, and the conversation went on after that handshake. */
  earlier: z.boolean().optional(),
});
export type QueuedInput = z.infer<typeof QueuedInput>;

export const Pending = z.object({
  openToolCalls: z.array(OpenToolCall),
  queuedInput: z.array(QueuedInput),
  /** The last assistant turn stopped before it finished (no final text after its last tool activity). */
  interruptedTurn: z.boolean(),
});
export type Pending = z.infer<typeof Pending>;

/** A shape the embedded schemas do not describe: reported by `inspect` and `drift`, never a crash. */
export const DriftEntry = z.object({
  harness: HarnessRef,
  version: z.string(),
  /** Record kind, e.g. `record:assistant` or `column:sessions.foo`. */
  where: z.string(),
  problem: z.string(),
  count: z.number().int().positive(),
  /** 1-based line numbers (or row ids) of the first few occurrences. */
  examples: z.array(z.number()),
});
export type DriftEntry = z.infer<typeof DriftEntry>;

export const SessionMeta = z.object({
  harness: HarnessRef,
  harnessVersion: z.string().optional(),
  id: z.string(),
  path: z.string().optional(),
  cwd: z.string().optional(),
  title: z.string().optional(),
  provider: z.string().optional(),
  models: z.array(z.string()),
  systemInstructions: z.string().optional(),
  /** The source harness's own permission word (translated by meaning at write time, never copied). */
  permissionMode: z.string().optional(),
  /**
   * The words `permissionMode` was translated from on an earlier hop (from provenance), while the session
   * still has the posture that hop wrote: a hop back to that harness restores them exactly.
   */
  permissionNative: z.object({ harness: HarnessRef, words: z.string() }).optional(),
  gitBranch: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  usage: Usage.optional(),
  /** How the session was started in its harness (Hermes `source`: cli, a gateway platform, ...). */
  source: z.string().optional(),
  /** What the source harness recorded the session cost, in US dollars. */
  costUsd: z.number().nonnegative().optional(),
});
export type SessionMeta = z.infer<typeof SessionMeta>;

/**
 * The source records of one type that are not messages (snapshots, titles, mode switches, usage events): how
 * many, and where the first stands. Reported, not carried (a same-harness copy reads them from its file); a
 * tally, not a record each, because a long session has hundreds of thousands (half the lines of a Codex
 * rollout), which held one by one made a long read's collections grow with it.
 */
export const PassthroughRecords = z.object({
  type: z.string(),
  count: z.number().int().positive(),
  first: Origin,
});
export type PassthroughRecords = z.infer<typeof PassthroughRecords>;

/**
 * What session-bridge's own earlier handoff into this session said was pending (from provenance): kept apart
 * from the transcript because the target harness may move or hide the handshake record itself.
 */
export const EarlierHandoff = z.object({
  /** When the handoff was made: later replies mean the conversation went on after it. */
  at: z.string(),
  calls: z.array(z.object({ callId: z.string(), name: z.string(), command: z.string().optional() })),
  queued: z.array(z.string()),
});
export type EarlierHandoff = z.infer<typeof EarlierHandoff>;

export const Session = z.object({
  meta: SessionMeta,
  /** The live thread, in order: what the model saw last. */
  messages: z.array(Message),
  /** Everything kept apart from the live thread: rewound branches, sidechains, subagents, compacted history. */
  threads: z.array(Thread),
  tools: z.array(ToolSchema),
  pending: Pending,
  /** By type, in the order each type first appears. */
  passthrough: z.array(PassthroughRecords),
  drift: z.array(DriftEntry),
  /** Problems met while reading that did not stop it (e.g. a truncated last line from a live writer). */
  notices: z.array(z.string()),
  earlierHandoff: EarlierHandoff.optional(),
});
export type Session = z.infer<typeof Session>;
