/**
 * The sentinels a pair carries and the checks that decide it. Every failure reason names the sentinel that is
 * missing and the role it was expected in, so a broken writer points at what it dropped.
 */
import type { Expected, ExpectedPart, InterruptPrompts, Mode, SeedPrompts, SentMessage } from "./driver.ts";

export interface SentinelPlan {
  prompts: SeedPrompts;
  /** An interrupted session's turns (against the fake servers): the two above, a slow call, queued words. */
  interrupt?: InterruptPrompts;
  /**
   * What the harness resumed at stop `stop` of a route (1 for the first target) is asked. Against the fake
   * servers each stop types a prompt of its own, so the next target must carry it (and its reply) as well.
   */
  resume(stop: number, at: string): string;
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
    const prompts: SeedPrompts = {
      first: `Remember the code word ${user}. Then invent one new random word of 10 to 14 lowercase ` +
        "letters that appears nowhere in this message, and reply with only that word.",
      tool:
        `Use your shell tool to run exactly this command, then reply with only its output: ${toolCommand}`,
      toolCommand,
    };
    return {
      user,
      tool: `tool-${tag}`,
      prompts,
      resume: () =>
        "Without running any tool, answer from our conversation so far, one per line: the code word I " +
        "asked you to remember, the word you invented, and the exact output of the shell command you ran.",
    };
  }
  const user = `user-sentinel-${tag}`;
  const tool = `tool-sentinel-${tag}`;
  const prompts = { first: `Remember ${user}.`, tool: `TOOL: echo ${tool}`, toolCommand: `echo ${tool}` };
  // One simple command that runs far longer than any seeding waits (tail -F keeps retrying the file it names,
  // which never appears): a harness's rule that allows exactly it lets it run without a permission prompt.
  // Not a leading `sleep N` (Claude Code 2.1 refuses one of 25 s or more), nor `a; b` (Claude Code checks each
  // part against its rules and, offline, asks about the parts).
  const slowCommand = `timeout 600 tail -F slow-sentinel-${tag}`;
  return {
    user,
    tool,
    prompts,
    interrupt: {
      ...prompts,
      slow: `TOOL: ${slowCommand}`,
      slowCommand,
      queued: `Queued while busy: also keep queued-sentinel-${tag} in mind.`,
    },
    resume: (stop, at) => `Resumed in ${at} (stop ${stop}): note hop-sentinel-${tag}-${stop}.`,
  };
}

/**
 * Builds the ordered parts of a conversation. A part follows the last conversation part before it; pending
 * parts (queued input) follow it too but are not followed in turn, since a handoff carries them in its
 * handshake, which may sit after later turns.
 */
export class ConversationParts {
  readonly parts: ExpectedPart[] = [];
  private anchor: number | undefined;

  constructor(parts: readonly ExpectedPart[] = [], anchor?: number) {
    this.parts = [...parts];
    this.anchor = anchor ?? (parts.length ? parts.length - 1 : undefined);
  }

  add(label: string, roles: SentMessage["role"][], needle: string, pending = false): this {
    this.parts.push({ label, roles, needle, ...(this.anchor === undefined ? {} : { after: this.anchor }) });
    if (!pending) this.anchor = this.parts.length - 1;
    return this;
  }

  /** Where the next conversation part attaches (kept across hops). */
  get last(): number | undefined {
    return this.anchor;
  }
}

/** The parts a seeded session must carry, in order: the two seeding turns, and the interrupted turn if any. */
export function seededParts(
  prompts: SeedPrompts | InterruptPrompts,
  firstReply: string,
  tool: string,
): ConversationParts {
  const parts = new ConversationParts()
    .add("typed prompt 1", ["user"], prompts.first)
    .add("assistant text 1", ["assistant"], firstReply)
    .add("typed prompt 2", ["user"], prompts.tool)
    .add("tool call", ["tool_call"], prompts.toolCommand)
    .add("tool output", ["tool"], tool);
  if ("slowCommand" in prompts) {
    parts
      .add("typed prompt 3", ["user"], prompts.slow)
      .add("interrupted call", ["tool_call"], prompts.slowCommand)
      // Typed by the person: their turn, or harness context where the harness keeps its own queue; either way
      // in its place, before whatever later stops add (it was once allowed to trail them, in a handshake).
      .add("queued input", ["user", "system"], prompts.queued);
  }
  return parts;
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

const excerpt = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

/**
 * What a model was sent checked part by part: each expected part exactly once in one of its roles, and after
 * the part it follows. A reason names the part, what was wrong, and for order the part it came before.
 */
export function checkOrder(sent: SentMessage[], parts: ExpectedPart[]): string[] {
  const positions = parts.map((part) =>
    sent.flatMap((m, i) => (part.roles.includes(m.role) && m.text.includes(part.needle) ? [i] : []))
  );
  const reasons: string[] = [];
  parts.forEach((part, i) => {
    const found = positions[i]!;
    const what = `${part.label} ${excerpt(part.needle)}`;
    if (found.length === 0) reasons.push(`${what} not sent as ${part.roles.join(" or ")} words`);
    else if (found.length > 1) reasons.push(`${what} sent ${found.length} times, expected once`);
  });
  parts.forEach((part, i) => {
    if (part.after === undefined) return;
    const [at, ...more] = positions[i]!;
    const [before, ...moreBefore] = positions[part.after]!;
    if (at === undefined || before === undefined || more.length || moreBefore.length) return;
    if (at < before) {
      reasons.push(`${part.label} sent before ${parts[part.after]!.label}, expected after it`);
    }
  });
  return reasons;
}

/** A real model's answer checked for each sentinel it was asked to recall. */
export function checkRecall(reply: string, expected: Expected): string[] {
  const text = reply.toLowerCase();
  return (["user", "assistant", "tool"] as const)
    .filter((kind) => !text.includes(expected[kind].toLowerCase()))
    .map((kind) => `the reply does not recall the ${kind} sentinel ${expected[kind]}`);
}
