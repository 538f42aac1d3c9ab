/**
 * Live: a Claude Code session killed while its Bash tool ran, with one message queued (the real
 * interrupted-queued fixture), handed with --stub-open-calls into a fresh home of every harness and resumed
 * offline by that harness's real binary. A target passes when the request it sent its fake model answers every
 * call id with an output in its own wire format (the Bash call with our interrupted result, not an orphan
 * patched up by the harness), and carries one handshake naming the call (by the target's tool name), and the
 * queued message once: as the user's words (in a Claude Code copy, which keeps its queue: in the handshake).
 *
 * Usage: npx bun acceptance/scenarios/interrupted.ts [--binary dist/session-bridge]   (exit 1 on any FAIL)
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { readClaudeSession } from "../../lib/harnesses/claude-code/read.ts";
import { HANDSHAKE_CLOSE, HANDSHAKE_OPEN, INTERRUPTED_RESULT } from "../../lib/handshake/handshake.ts";
import { BUILTIN_HARNESSES } from "../../lib/harnesses/registry.ts";
import type { HarnessName } from "../../lib/harnesses/registry.ts";
import { binaryArg, bridgeCli, claudeFixture, step, withWork } from "./live.ts";
import { startTarget, TARGET_IDS } from "./targets.ts";
import { exchangeOf, unpaired } from "./wire.ts";

const FIXTURE = claudeFixture("interrupted-queued");
/** A word of the interrupted command: the stubbed call must still be that command. */
const COMMAND_MARK = "fixture-slow-start";

/** The target's shell tool, as session-bridge translates Claude's Bash into it. */
const shellToolName = (target: HarnessName) =>
  BUILTIN_HARNESSES[target].conversation.tools.fromCanonical({ kind: "shell", command: "true" })?.name;

async function check(target: HarnessName, work: string, binary: string | undefined): Promise<string[]> {
  const { pending } = await readClaudeSession(FIXTURE);
  const [open] = pending.openToolCalls;
  const [queued] = pending.queuedInput;
  if (!open || !queued) return ["the fixture has no open call or no queued message"];
  const to = await startTarget(target, join(work, "target"));
  try {
    mkdirSync(join(work, "target project"));
    const cwd = realpathSync(join(work, "target project"));
    const written = bridgeCli(binary, join(work, "bridge")).handoff([
      FIXTURE,
      "--to",
      target,
      "--cwd",
      cwd,
      "--stub-open-calls",
      ...to.homeFlags,
    ]);
    const resumed = await to.resume(cwd, written.id, "Please continue where we left off.");
    const reasons = resumed.ok ? [] : [`resume failed: ${resumed.detail}`];
    const ex = exchangeOf(target, to.requests().at(-1));
    const loose = unpaired(ex);
    if (loose.calls.length) reasons.push(`orphan call(s) sent: ${loose.calls.map((c) => c.id).join(", ")}`);
    if (loose.outputs.length) {
      reasons.push(`output(s) answering no call: ${loose.outputs.map((o) => o.id).join(", ")}`);
    }
    const stub = ex.outputs.find((o) => o.text.includes(INTERRUPTED_RESULT));
    const call = ex.calls.find((c) => c.id === stub?.id);
    if (!stub) reasons.push("no interrupted result was sent");
    else if (!call || call.name !== shellToolName(target) || !call.args.includes(COMMAND_MARK)) {
      reasons.push(`the interrupted result does not answer the ${shellToolName(target)} call: ${stub.id}`);
    }
    const handshakes = ex.texts.filter((t) => t.includes(HANDSHAKE_OPEN));
    if (handshakes.length !== 1) reasons.push(`${handshakes.length} handshakes sent, expected 1`);
    else {
      // The handshake names the call by the tool the target knows it as.
      const named = `${shellToolName(target)} (${open.callId})`;
      if (!handshakes[0]!.includes(named)) reasons.push(`the handshake does not name the call as ${named}`);
      // A Claude Code copy keeps its own queue, stated by the handshake; elsewhere the words are the user's
      // (Hermes joins them with the handshake that follows into one message: the handshake is cut out).
      const outside = (t: string) => {
        const [from, to] = [t.indexOf(HANDSHAKE_OPEN), t.indexOf(HANDSHAKE_CLOSE)];
        return from === -1 || to === -1 ? t : t.slice(0, from) + t.slice(to + HANDSHAKE_CLOSE.length);
      };
      const sent = target === "claude-code" ? handshakes : ex.texts.map(outside);
      const times = sent.join("\n").split(queued.text).length - 1;
      if (times !== 1) reasons.push(`the queued message was sent ${times} times where expected, not once`);
    }
    return reasons;
  } finally {
    await to.close();
  }
}

async function main(): Promise<number> {
  const binary = binaryArg();
  const results: boolean[] = [];
  for (const target of TARGET_IDS) {
    results.push(
      await withWork(
        `sb-interrupted-${target}-`,
        (work) =>
          step(
            `claude-code -> ${target}: interrupted session, --stub-open-calls, resumed`,
            () => check(target, work, binary),
          ),
      ),
    );
  }
  return results.every(Boolean) ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();
