/**
 * Round-trip proof over every captured fixture of every harness: A to B to A and A to B to C to A keep the
 * conversation core (roles, text, reasoning text, tool calls with their exact native form, results and their
 * pairing, order). Each hop is a real conversion: rendered to a file, read back by the target's reader. The
 * harnesses are the registry's, their fixtures found by name (tests/helpers/harness-material.ts): a harness
 * with none fails here, naming what to capture.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Session } from "../lib/ir/schema.ts";
import type { Harness } from "../lib/harnesses/types.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { convertSession } from "../lib/pipeline/convert.ts";
import { restoreProvenance } from "../lib/tools/provenance.ts";
import { conversationCore } from "./helpers/ir-core.ts";
import { builtinCoverage, capturedSessions } from "./helpers/harness-material.ts";
import { tempDir } from "./helpers/tmp.ts";

const covered = await builtinCoverage();
const HARNESSES = covered.map((c) => c.harness);
const dir = tempDir();
const bridgeHome = join(dir, "bridge");
const homes = Object.fromEntries(HARNESSES.map((h) => [h.name, join(dir, h.name)]));

/** Every session every registered harness's fixtures hold (tests/helpers/harness-material.ts). */
const sources = (await Promise.all(covered.map((c) => capturedSessions(c, join(dir, "sources"))))).flat();

let hopNo = 0;
async function hop(session: Session, target: Harness): Promise<Session> {
  const path = join(dir, `hop-${hopNo++}.${target.name}.jsonl`);
  await convertSession(session, target, {
    registry: builtinRegistry,
    handshake: true,
    stubOpenCalls: false,
    now: new Date(),
    home: homes[target.name],
    cwd: "/home/user/project",
  }, {
    path,
    replace: false,
  }, bridgeHome);
  return restoreProvenance(bridgeHome, await target.store.read(path));
}

/** Text made inert on the way (‹tag›) is the same words. */
const core = (s: Session) =>
  JSON.parse(JSON.stringify(conversationCore(s.messages)).replaceAll("‹", "<").replaceAll("›", ">"));

/**
 * A prompt queued and never sent joins the conversation on the first hop to another harness: the user's words
 * where the thread ends, where the harness would have sent them.
 */
const withQueuedWords = (s: Session): Session => ({
  ...s,
  messages: [
    ...s.messages,
    ...s.pending.queuedInput.map((q, n): Session["messages"][number] => ({
      uid: `queued-${n}`,
      parentUid: null,
      role: "user",
      kind: "turn",
      blocks: [{ type: "text", text: q.text }],
    })),
  ],
});

/** A to B to A for every other B, and A to B to C to A for every ordered pair of others. */
const paths = (a: Harness): Harness[][] => {
  const others = HARNESSES.filter((h) => h !== a);
  return [
    ...others.map((b) => [b, a]),
    ...others.flatMap((b) => others.filter((c) => c !== b).map((c) => [b, c, a])),
  ];
};

for (const source of sources) {
  test(`round trips keep the conversation core: ${source.label}`, async () => {
    const original = restoreProvenance(bridgeHome, await source.harness.store.read(source.ref));
    const expected = core(withQueuedWords(original));
    for (const route of paths(source.harness)) {
      let session = original;
      for (const to of route) session = await hop(session, to);
      const names = route.map((h) => h.name).join(" -> ");
      assert.deepEqual(core(session), expected, `${source.harness.name} -> ${names}`);
    }
  });
}
