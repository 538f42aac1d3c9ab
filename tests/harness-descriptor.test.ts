/**
 * What a harness descriptor is made of works for a harness no core file knows: its store is loaded on first
 * use through the shared helper (lib/harnesses/lazy-store.ts), and its reasoning provider is any provider id.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Message, Session } from "../lib/ir/schema.ts";
import { ReasoningBlock } from "../lib/ir/schema.ts";
import { emptySession } from "../lib/ir/session.ts";
import { nothingDetached, proofDetacher } from "../lib/ir/reasoning.ts";
import { lazyStore } from "../lib/harnesses/lazy-store.ts";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import type { StoreAccess, StoreListing } from "../lib/harnesses/types.ts";
import { toy } from "./helpers/toy-harness/index.ts";

test("a store's listing and its readers load on first call, each once asked for, and a store without open reads whole", async () => {
  const loaded: string[] = [];
  const session: Session = emptySession({ harness: "probe", id: "p1", models: [] });
  const listing: StoreListing = { list: () => [] };
  const access: StoreAccess = {
    read: () => Promise.resolve(session),
    async *render() {},
    plan: () => Promise.reject(new Error("not planned here")),
    configuredModel: () => undefined,
  };
  const store = lazyStore({ locate: (home) => home, newId: () => "n", checkId: (id) => id }, {
    listing: () => (loaded.push("listing"), Promise.resolve({ listing })),
    access: () => (loaded.push("access"), Promise.resolve({ access })),
  });
  assert.equal(store.locate("/h"), "/h");
  assert.deepEqual(loaded, [], "the facts load nothing");
  assert.deepEqual(await store.list("/h"), []);
  assert.equal(await store.listingParts("/h"), undefined, "no parts: the listing is read whole");
  assert.deepEqual(loaded, ["listing", "listing"], "listing loads no reader");
  assert.equal(await store.open("/p"), session);
  assert.deepEqual(loaded.slice(2), ["access"]);
});

test("a harness of a provider no core file names keeps its proofs on a hop to its provider; a provider that is no id is refused", () => {
  const google = {
    ...toy,
    conversation: {
      ...toy.conversation,
      capabilities: { ...toy.conversation.capabilities, reasoningProvider: "google" },
    },
  };
  assert.ok(withHarness(builtinRegistry, google).harnesses.includes(google));
  const block = ReasoningBlock.parse({
    type: "reasoning",
    text: "why",
    signature: "sig",
    provider: "google",
  });
  const message: Message = { uid: "m", parentUid: null, role: "assistant", kind: "turn", blocks: [block] };
  const out = nothingDetached();
  const detach = proofDetacher("google", (text) => text, () => true);
  assert.deepEqual(detach(message, out).blocks, [block]);
  assert.equal(out.proofs, 0);
  // The same block to a target of another provider leaves its proof behind.
  assert.notDeepEqual(proofDetacher("anthropic", (text) => text, () => true)(message, out).blocks, [block]);
  for (const bad of ["", "Google", "google ai"]) {
    const wrong = {
      ...google,
      conversation: {
        ...google.conversation,
        capabilities: { ...google.conversation.capabilities, reasoningProvider: bad },
      },
    };
    assert.throws(() => withHarness(builtinRegistry, wrong), /is no provider id/, JSON.stringify(bad));
  }
});
