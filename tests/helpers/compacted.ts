/**
 * A compacted session's two parts as text, to compare what a writer kept with what the source held: the
 * history before the compaction and the summary with the conversation after it.
 */
import type { Message, Session } from "../../lib/ir/schema.ts";
import { isHandshake } from "../../lib/handshake/handshake.ts";
import { readClaudeSession } from "../../lib/harnesses/claude-code/read.ts";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { HarnessDriver, SentMessage } from "../../lib/certify-kit/driver.ts";
import { handoff } from "../../lib/certify/bridge.ts";
import { homeVariables } from "../../lib/harnesses/homes.ts";
import { builtinRegistry } from "../../lib/harnesses/registry.ts";
import { tempDir } from "./tmp.ts";

/** The compacted Claude Code session every hop-back test starts from (a real /compact, 2.1.332). */
export const CLAUDE_COMPACTED = new URL("../../fixtures/claude-code/2.1.332/compacted.jsonl", import.meta.url)
  .pathname;

/** The words of that session's summary that every writer must carry (its markup may be neutralized). */
export const SUMMARY_MARK = "COMPACT-SUMMARY: s-52fe4e60";

/** The conversation's words, `role: text`, one per message (what a harness injected and handshakes left out). */
export function conversationTexts(messages: Message[]): string[] {
  return messages.flatMap((m) => {
    if (m.kind === "context" || isHandshake(m)) return [];
    const text = m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    return text ? [`${m.role === "assistant" ? "assistant" : "user"}: ${text}`] : [];
  });
}

export interface CompactedParts {
  /** Every message before the compaction, oldest first. */
  history: string[];
  summary: string;
  /** The live thread after the summary. */
  after: string[];
}

/** A session's compacted history, its summary and what followed it, as text. */
export function compactedParts(session: Session): CompactedParts {
  const history = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  const at = session.messages.findIndex((m) => m.kind === "summary");
  const summary = session.messages[at];
  return {
    history: conversationTexts(history),
    summary: summary ? summary.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n") : "",
    after: conversationTexts(session.messages.slice(at + 1)),
  };
}

/** The source's parts, read with session-bridge's own Claude Code reader. */
export async function claudeCompactedParts(): Promise<CompactedParts> {
  return compactedParts(await readClaudeSession(CLAUDE_COMPACTED));
}

/** What a harness did with a compacted session handed into it and resumed. */
export interface ResumedCompacted {
  /** The messages of the resumed turn's request to the fake model. */
  sent: SentMessage[];
  /** Whether the harness's own listing shows the session. */
  listed: boolean;
  /** The written session (a file, or `<database>#<id>`). */
  path: string;
}

/** The typed prompt of the resumed turn. */
export const RESUMED_PROMPT = "Resumed: note hop-sentinel-compacted.";

/**
 * The compacted Claude Code session handed into the real harness (its driver, full mode: offline against the
 * kit's fake model server, in private homes) and resumed with one typed prompt.
 */
export async function resumeCompactedHandoff(
  driver: HarnessDriver,
  bin: string,
  version: string,
): Promise<ResumedCompacted> {
  const work = realpathSync(tempDir(`sb-compacted-${driver.id}-`));
  const registry = builtinRegistry;
  const harness = await driver.open({
    work,
    bin,
    version,
    mode: "full",
    env: process.env,
    homeVariables: homeVariables(registry.harnesses),
  });
  try {
    const cwd = join(work, "project");
    mkdirSync(cwd);
    await harness.warmUp(cwd);
    const handed = await handoff(undefined, join(work, "bridge"), {
      session: CLAUDE_COMPACTED,
      from: "claude-code",
      to: driver.id,
      cwd,
      homes: harness.homes(),
      env: { ...process.env, ...harness.configEnv?.() },
    }, registry);
    const listed = await harness.listed(handed.id, cwd);
    const turn = await harness.resume(cwd, handed.id, RESUMED_PROMPT);
    if (!turn.ok) throw new Error(`${driver.id} did not resume the session: ${turn.detail}`);
    return { sent: harness.lastRequest(), listed, path: handed.path };
  } finally {
    await harness.close();
  }
}

/**
 * What the resumed request must hold of the source, by the words of each message: the summary and every
 * message after it, and none of the history before the compaction outside the summary's own message (Copilot
 * CLI lists the user's earlier prompts in the message it wraps a summary in: its own compaction does so too).
 */
export function sentOfCompacted(sent: SentMessage[], source: CompactedParts) {
  const text = sent.map((m) => m.text).join("\n");
  const outside = sent.filter((m) => !m.text.includes(SUMMARY_MARK)).map((m) => m.text).join("\n");
  const words = (t: string) => t.replace(/^(user|assistant): /, "");
  return {
    summary: text.includes(SUMMARY_MARK),
    after: source.after.filter((t) => !text.includes(words(t))),
    history: source.history.filter((t) => outside.includes(words(t))),
    prompt: text.includes(RESUMED_PROMPT),
  };
}
