/**
 * The sentinels a pair carries and the checks that decide it. Every failure reason names the sentinel that is
 * missing and the role it was expected in, so a broken writer points at what it dropped.
 */
import type { Expected, Mode, SeedPrompts, SentMessage } from "./types.ts";

export interface SentinelPlan {
  prompts: SeedPrompts;
  /** What the resumed harness is asked. */
  resume: string;
  user: string;
  tool: string;
}

/**
 * Against the fake servers the prompts are the fake scripts' triggers (`TOOL: <command>` makes the fake model
 * call the shell tool). A real model is asked in plain words, and the tool's output is made by the shell, so it
 * is not a string the user typed.
 */
export function sentinelPlan(mode: Mode, tag: string): SentinelPlan {
  if (mode === "real") {
    const user = `user-sentinel-${tag}`;
    const toolCommand = `printf '%s-%s\\n' tool ${tag}`;
    return {
      user,
      tool: `tool-${tag}`,
      prompts: {
        first: `Remember the code word ${user}. Then invent one new random word of 10 to 14 lowercase ` +
          "letters that appears nowhere in this message, and reply with only that word.",
        tool:
          `Use your shell tool to run exactly this command, then reply with only its output: ${toolCommand}`,
        toolCommand,
      },
      resume:
        "Without running any tool, answer from our conversation so far, one per line: the code word I " +
        "asked you to remember, the word you invented, and the exact output of the shell command you ran.",
    };
  }
  const user = `user-sentinel-${tag}`;
  const tool = `tool-sentinel-${tag}`;
  return {
    user,
    tool,
    prompts: { first: `Remember ${user}.`, tool: `TOOL: echo ${tool}`, toolCommand: `echo ${tool}` },
    resume: "Please continue where we left off.",
  };
}

/**
 * The assistant sentinel is the model's own answer to the first turn: all of it from a fake server, the
 * invented word from a real model. Refused when it is empty or appears in the user's words, since then it
 * would prove nothing about assistant turns.
 */
export function assistantSentinel(mode: Mode, reply: string, prompts: SeedPrompts): string {
  const words = reply.match(/[A-Za-z]{6,20}/g) ?? [];
  const sentinel = mode === "real" ? (words.at(-1) ?? "").toLowerCase() : reply.trim();
  if (!sentinel) {
    throw new Error(`seed: the first turn's reply has no assistant sentinel: ${JSON.stringify(reply)}`);
  }
  if (`${prompts.first}\n${prompts.tool}`.toLowerCase().includes(sentinel.toLowerCase())) {
    throw new Error(`seed: the assistant sentinel "${sentinel}" appears in the user's words`);
  }
  return sentinel;
}

const has = (messages: SentMessage[], role: SentMessage["role"], needle: string) =>
  messages.some((m) => m.role === role && m.text.includes(needle));

/** What a model was sent (or a store holds) checked for every sentinel in its role. */
export function checkSent(sent: SentMessage[], expected: Expected): string[] {
  const reasons: string[] = [];
  if (!has(sent, "user", expected.user)) {
    reasons.push(`user sentinel ${expected.user} not sent as user words`);
  }
  if (!has(sent, "assistant", expected.assistant)) {
    reasons.push(`assistant sentinel "${expected.assistant}" not sent as assistant words`);
  }
  if (!has(sent, "tool_call", expected.tool)) {
    reasons.push(`tool sentinel ${expected.tool} not sent as an assistant tool call`);
  }
  if (!has(sent, "tool", expected.tool)) {
    reasons.push(`tool sentinel ${expected.tool} not sent as a tool output`);
  }
  return reasons;
}

/** A real model's answer checked for each sentinel it was asked to recall. */
export function checkRecall(reply: string, expected: Expected): string[] {
  const text = reply.toLowerCase();
  return (["user", "assistant", "tool"] as const)
    .filter((kind) => !text.includes(expected[kind].toLowerCase()))
    .map((kind) => `the reply does not recall the ${kind} sentinel ${expected[kind]}`);
}
