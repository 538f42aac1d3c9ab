/**
 * A Claude Code session killed while its Bash tool ran, with a second message typed meanwhile (the real
 * interrupted-queued fixture), converted into every harness: by default the call is answered with a result
 * saying it was interrupted (every target otherwise hides it or invents an output on resume), one handshake
 * names the call as the target names it, and the queued words reach the target once: as the user's words
 * after the call's result (another harness), or in the handshake (a Claude Code copy, which keeps its queue).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry, findHarness } from "../lib/harnesses/registry.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { HANDSHAKE_OPEN, INTERRUPTED_RESULT, isHandshake, queuedNote } from "../lib/handshake/handshake.ts";
import type { Session } from "../lib/ir/schema.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { builtinCoverage, expectedFor, preparedHomes } from "./helpers/harness-material.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURE = claudeFixture("interrupted-queued");
/** Every registered harness (a new one must say below how it names the shell and treats an open call). */
const TARGETS = builtinRegistry.harnesses.map((h) => h.name);

const root = tempDir();
const { flags: homeFlags } = preparedHomes(await builtinCoverage(), root);

interface Converted {
  text: string;
  session: Session;
}

const converted = new Map<string, Promise<Converted>>();

/** The fixture rendered for `target` (once per flag set), and that output read back by the target's reader. */
async function convert(target: string, leaveOpen: boolean): Promise<Converted> {
  const key = `${target}:${leaveOpen}`;
  if (!converted.has(key)) {
    const out = join(root, `${target}${leaveOpen ? "-open" : ""}.out`);
    const r = await runCli([
      "convert",
      FIXTURE,
      "--to",
      target,
      "-o",
      out,
      ...homeFlags,
      ...(leaveOpen ? ["--no-stub-open-calls"] : []),
    ]);
    assert.equal(r.code, 0, r.stderr);
    converted.set(
      key,
      findHarness(builtinRegistry, target).store.read(out).then((session) => ({
        text: readFileSync(out, "utf8"),
        session,
      })),
    );
  }
  return converted.get(key)!;
}

/** The handshake's words without the moment of conversion, which differs between two runs. */
function handshakeOf(session: Session): string {
  const [message] = session.messages.filter(isHandshake);
  const text = message!.blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
  return text.replace(/ on \d{4}-\d\d-\d\dT[\d:.]+Z\./, ".");
}

const source = readClaudeSession(FIXTURE);

test("the captured fixture has one open Bash call and one queued message", async () => {
  const { pending } = await source;
  assert.deepEqual(pending.openToolCalls.map((c) => c.name), ["Bash"]);
  assert.deepEqual(pending.queuedInput.map((q) => q.text), [
    "Queued while the tool ran: afterwards, also list the files.",
  ]);
});

/** The shell tool as each target names it: a stub or handshake naming `Bash` in Hermes would name no tool. */
const SHELL: Record<string, string> = {
  "claude-code": "Bash",
  codex: "exec_command",
  hermes: "terminal",
  "gemini-cli": "run_shell_command",
  opencode: "bash",
  "copilot-cli": "bash",
  pi: "bash",
};
const CALL_ID = "toolu_fake_b203b0d1e13e6a06134f";
const QUEUED = "Queued while the tool ran: afterwards, also list the files.";

/** How many times a text occurs in what the target's model will read (every text of the thread read back). */
function occurrences(session: Session, needle: string): number {
  const texts = session.messages.flatMap((m) =>
    m.blocks.flatMap((b) =>
      b.type === "text"
        ? [b.text]
        : b.type === "tool_result"
        ? b.content.map((p) => (p.type === "text" ? p.text : ""))
        : []
    )
  );
  return texts.join("\n").split(needle).length - 1;
}

for (const target of TARGETS) {
  test(`claude-code -> ${target}: with default flags the interrupted call is answered with a result saying so, under the target's tool name`, async () => {
    const { session } = await convert(target, false);
    const call = session.messages.flatMap((m) => m.blocks).find((b) =>
      b.type === "tool_call" && b.id === CALL_ID
    );
    assert.ok(call?.type === "tool_call");
    assert.equal(call.name, expectedFor(SHELL, target, "shell tool name"));
    const results = session.messages.flatMap((m) => m.blocks).filter((b) =>
      b.type === "tool_result" && b.callId === CALL_ID
    );
    assert.equal(results.length, 1);
    const [result] = results;
    assert.ok(result?.type === "tool_result" && result.isError, "flagged as an error");
    assert.deepEqual(result.content, [{ type: "text", text: INTERRUPTED_RESULT }]);
  });

  test(`claude-code -> ${target}: one handshake names the interrupted call as the target names it, and the queued words reach the model once`, async () => {
    const { text, session } = await convert(target, false);
    assert.equal(text.split(HANDSHAKE_OPEN).length - 1, 1, "exactly one handshake in the output");
    assert.equal(session.messages.filter(isHandshake).length, 1, "read back as one handshake");
    const handshake = handshakeOf(session);
    assert.ok(
      handshake.includes(
        "Interrupted tool calls (still running when the session stopped; no result was recorded):\n" +
          `- ${expectedFor(SHELL, target, "shell tool name")} (${CALL_ID})\n`,
      ),
      handshake,
    );
    if (target === "claude-code") {
      // A same-harness copy keeps Claude Code's own queue records: the handshake states the words.
      assert.ok(
        handshake.includes(`The user had queued these messages that were not yet answered:\n- "${QUEUED}"\n`),
        handshake,
      );
    } else {
      // The user's words where Claude Code would have sent them, after the interrupted call's result.
      assert.ok(handshake.includes(queuedNote(1)), handshake);
      const blocks = session.messages.flatMap((m) => m.blocks.map((b) => ({ b, role: m.role })));
      const words = blocks.findIndex(({ b }) => b.type === "text" && b.text === QUEUED);
      const result = blocks.findIndex(({ b }) => b.type === "tool_result" && b.callId === CALL_ID);
      assert.ok(words > result && result !== -1, "after the interrupted call's result");
      assert.equal(blocks[words]!.role, "user");
    }
    assert.equal(occurrences(session, QUEUED), 1);
  });

  test(`claude-code -> ${target}: --no-stub-open-calls leaves the call open and reports what the target will do with it as a loss`, async () => {
    const r = await runCli([
      "convert",
      FIXTURE,
      "--to",
      target,
      "-o",
      join(root, `${target}-report.out`),
      ...homeFlags,
      "--no-stub-open-calls",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const report = (JSON.parse(r.stdout) as {
      report: { lossless: boolean; entries: { code: string; severity: string; detail: string }[] };
    }).report;
    const entry = report.entries.find((e) => e.code === "open-tool-calls");
    assert.equal(entry?.severity, "loss");
    const behaviour = expectedFor(
      {
        "claude-code": "drops such a call from what it sends, so the model never sees it",
        codex: 'sends an "aborted" output of its own',
        hermes: "sends a placeholder pointing at a summary that does not exist",
        "gemini-cli": "sends the call with no result at all, a request its provider's API refuses",
        opencode:
          'sends an error result of its own, "[Tool execution was interrupted]", saying nothing of what the call did',
        "copilot-cli": "sends an error result of its own, " +
          '"Tool execution was interrupted before a result was recorded. Its effects may be absent, partial, or ' +
          "already complete, and other tools may have completed successfully. Check the current state before " +
          'retrying; do not assume success or replay this operation blindly.", saying nothing of what the call did',
        pi: 'sends an error result of its own, "No result provided", saying nothing of what the call did',
      },
      target,
      "behaviour on resume with an open call",
    );
    assert.equal(
      entry?.detail,
      `interrupted tool calls left without a result (--no-stub-open-calls): on resume ${target} ${behaviour}`,
    );
    assert.equal(report.lossless, false);
  });
}
