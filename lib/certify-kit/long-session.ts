/**
 * A Claude Code session as long as asked (megabytes, millions of tokens), for fitting's bench and live rows:
 * turns of a prompt, a shell call whose output is most of the bulk, and a reply. Every prompt and reply carries
 * a sentinel of its own (a tool output's at its end, past what a summary quotes of it), so a check of what a target's model was sent can tell which turns reached it verbatim
 * (their tool outputs' sentinels) and that every prompt reached it at least in the summary. The same size and
 * seed give the same bytes.
 */
import { createWriteStream } from "node:fs";
import { finished } from "node:stream/promises";

export interface LongSessionSpec {
  /** About how many bytes the file should hold. */
  bytes: number;
  /** The bytes of each tool output (the turns are as many as it takes to reach `bytes`). */
  outputBytes?: number;
  sessionId: string;
  cwd: string;
  model?: string;
}

const DEFAULT_OUTPUT = 64 * 1024;
/** What a turn's records take besides its tool output, in bytes (measured on the lines below). */
const TURN_OVERHEAD = 1_500;

/** How many turns a spec makes. */
export const longSessionTurns = (spec: LongSessionSpec) =>
  Math.max(1, Math.ceil(spec.bytes / ((spec.outputBytes ?? DEFAULT_OUTPUT) + TURN_OVERHEAD)));

/** The sentinels of turn `i` (from 0). */
export const longSentinels = (i: number) => ({
  prompt: `PROMPT-SENTINEL-${String(i).padStart(5, "0")}`,
  output: `OUTPUT-SENTINEL-${String(i).padStart(5, "0")}`,
  reply: `REPLY-SENTINEL-${String(i).padStart(5, "0")}`,
});

/** Words for a tool output's bulk: varied enough to tokenize like a real listing, not like one repeated letter. */
const WORDS = [
  "src/",
  "lib/",
  "index.ts",
  "const",
  "return",
  "function",
  "await",
  "error:",
  "42",
  "ok",
  "\n",
];

function bulk(bytes: number, seed: number): string {
  const parts: string[] = [];
  let length = 0;
  let state = seed * 2654435761 >>> 0;
  while (length < bytes) {
    state = (state * 1103515245 + 12345) >>> 0;
    const word = WORDS[state % WORDS.length]!;
    parts.push(word, " ");
    length += word.length + 1;
  }
  return parts.join("");
}

/** The session's JSONL lines, one turn at a time (a multi-megabyte session is never held whole). */
export function* longSessionLines(spec: LongSessionSpec): Generator<string> {
  const model = spec.model ?? "claude-sonnet-4-6";
  const outputBytes = spec.outputBytes ?? DEFAULT_OUTPUT;
  const turns = longSessionTurns(spec);
  const base = Date.UTC(2026, 10, 1);
  let parent: string | null = null;
  let clock = 0;
  const common = (uuid: string) => {
    const record = {
      parentUuid: parent,
      isSidechain: false,
      uuid,
      timestamp: new Date(base + clock++ * 1000).toISOString(),
      userType: "external",
      cwd: spec.cwd,
      sessionId: spec.sessionId,
      version: "2.1.332",
    };
    parent = uuid;
    return record;
  };
  // A uuid per record: its first group says which record of the turn, its second which turn.
  const id = (record: string, i: number) => `${record}-${String(i).padStart(4, "0")}-4000-8000-000000000000`;
  for (let i = 0; i < turns; i++) {
    const s = longSentinels(i);
    const call = `toolu_long_${String(i).padStart(8, "0")}`;
    yield JSON.stringify({
      ...common(id("a0000000", i)),
      type: "user",
      message: { role: "user", content: `${s.prompt}: list the files of step ${i} and say what changed.` },
    });
    yield JSON.stringify({
      ...common(id("b0000000", i)),
      type: "assistant",
      message: {
        id: `msg_long_${i}_call`,
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "tool_use", id: call, name: "Bash", input: { command: `ls -R step-${i}` } }],
        stop_reason: "tool_use",
        usage: { input_tokens: 0, output_tokens: 20 },
      },
    });
    yield JSON.stringify({
      ...common(id("c0000000", i)),
      type: "user",
      message: {
        role: "user",
        content: [{
          tool_use_id: call,
          type: "tool_result",
          content: `${bulk(outputBytes, i)}\n${s.output}`,
        }],
      },
    });
    yield JSON.stringify({
      ...common(id("d0000000", i)),
      type: "assistant",
      message: {
        id: `msg_long_${i}_reply`,
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "text", text: `${s.reply}: step ${i} lists its files; nothing failed.` }],
        stop_reason: "end_turn",
        usage: { input_tokens: 0, output_tokens: 20 },
      },
    });
  }
}

/** The session written to a new file at `path`, a line at a time. */
export async function writeLongSession(spec: LongSessionSpec, path: string): Promise<void> {
  const out = createWriteStream(path);
  for (const line of longSessionLines(spec)) {
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end();
  await finished(out);
}
