/**
 * A Claude Code session killed while its Bash tool ran, with a second message typed meanwhile (the real
 * interrupted-queued fixture), converted into every harness: one handshake that names the open call and the
 * queued message, the same with or without --stub-open-calls, and with stubs the call closed by a failed result
 * that the target's own reader sees.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { harness } from "../lib/harnesses/index.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { HANDSHAKE_OPEN, INTERRUPTED_RESULT, isHandshake } from "../lib/handshake/handshake.ts";
import type { HarnessName, Session } from "../lib/ir/schema.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { cli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURE = claudeFixture("interrupted-queued");
const TARGETS: HarnessName[] = ["claude-code", "codex", "hermes"];

const root = tempDir();
const codexHome = join(root, "codex");
makeCodexHome(codexHome);
const hermesHome = join(root, "hermes");
mkdirSync(hermesHome);

interface Converted {
  text: string;
  session: Session;
}

const converted = new Map<string, Promise<Converted>>();

/** The fixture rendered for `target` (once per flag set), and that output read back by the target's reader. */
function convert(target: HarnessName, stub: boolean): Promise<Converted> {
  const key = `${target}:${stub}`;
  if (!converted.has(key)) {
    const out = join(root, `${target}${stub ? "-stubbed" : ""}.out`);
    const r = cli([
      "convert",
      FIXTURE,
      "--to",
      target,
      "-o",
      out,
      "--codex-home",
      codexHome,
      "--hermes-home",
      hermesHome,
      ...(stub ? ["--stub-open-calls"] : []),
    ]);
    assert.equal(r.code, 0, r.stderr);
    converted.set(
      key,
      harness(target).read(out).then((session) => ({ text: readFileSync(out, "utf8"), session })),
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

for (const target of TARGETS) {
  test(`claude-code -> ${target}: one handshake naming the open Bash call and the queued message, unchanged by --stub-open-calls`, async () => {
    const { pending } = await source;
    const plain = await convert(target, false);
    const stubbed = await convert(target, true);
    for (const out of [plain, stubbed]) {
      assert.equal(out.text.split(HANDSHAKE_OPEN).length - 1, 1, "exactly one handshake in the output");
      assert.equal(out.session.messages.filter(isHandshake).length, 1, "read back as one handshake");
    }
    const text = handshakeOf(stubbed.session);
    assert.ok(text.includes(`Bash (${pending.openToolCalls[0]!.callId})`), text);
    assert.ok(text.includes(JSON.stringify(pending.queuedInput[0]!.text)), text);
    assert.equal(text, handshakeOf(plain.session));
  });

  test(`claude-code -> ${target}: --stub-open-calls closes the Bash call with a result flagged as an error`, async () => {
    const callId = (await source).pending.openToolCalls[0]!.callId;
    const plain = await convert(target, false);
    assert.deepEqual(
      plain.session.pending.openToolCalls.map((c) => c.callId),
      [callId],
      "open without stubs",
    );
    const stubbed = await convert(target, true);
    assert.deepEqual(stubbed.session.pending.openToolCalls, [], "no open call with stubs");
    const results = stubbed.session.messages.flatMap((m) => m.blocks).filter((b) =>
      b.type === "tool_result" && b.callId === callId
    );
    assert.equal(results.length, 1);
    const [result] = results;
    assert.ok(result?.type === "tool_result" && result.isError, "flagged as an error");
    assert.deepEqual(result.content, [{ type: "text", text: INTERRUPTED_RESULT }]);
  });
}
