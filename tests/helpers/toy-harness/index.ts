/**
 * A fourth harness that exists only in the test tree: everything session-bridge knows about it is this
 * descriptor, and it joins a registry with `withHarness(builtinRegistry, toy)`. No file outside the test tree
 * names it, which is what tests/toy-harness.test.ts proves.
 */
import type { Harness } from "../../../lib/harnesses/types.ts";
import { lazyStore } from "../../../lib/harnesses/lazy-store.ts";
import type { ToolVocabulary } from "../../../lib/tools/canonical.ts";
import { isObject } from "../../../lib/io/json.ts";
import { assertUuid, newUuid } from "../../../lib/ids.ts";
import { isToyHeader, TOY } from "./codec.ts";
import { listToy, planToy, readToy, renderToy, resumeToy, sessionsDir, TOY_HOME } from "./store.ts";

/** The toy has one tool, `sh`, that runs a command line. */
const toyTools: ToolVocabulary = {
  toCanonical: ({ name, input }) =>
    name === "sh" && isObject(input) && typeof input.cmd === "string"
      ? { kind: "shell", command: input.cmd }
      : undefined,
  fromCanonical: (call) => (call.kind === "shell" ? { name: "sh", input: { cmd: call.command } } : undefined),
};

export const toy: Harness = {
  name: TOY,
  aliases: ["toybox"],
  title: "Toy",
  home: TOY_HOME,
  files: { extensions: [".jsonl"], recognizes: ({ first }) => isToyHeader(first) },
  conversation: {
    controlTags: ["toy-control"],
    tools: toyTools,
    models: { map: (model) => model },
    provesReasoning: () => false,
    capabilities: {
      harness: TOY,
      threadTopology: false,
      reasoningProvider: "none",
      toolSchemas: false,
      systemInstructions: false,
      queuedInput: false,
      permissionPosture: false,
      perTurnModel: false,
      images: false,
      subagents: false,
      copiesOwnSessions: false,
      keepsCompactedHistory: false,
      compactsOverWindow: false,
      unansweredCalls: "dropped",
    },
  },
  // Its modules are loaded at once: the toy has no start-up to keep small.
  store: lazyStore({ locate: sessionsDir, newId: () => newUuid(), checkId: (id) => assertUuid(id) }, {
    listing: () => Promise.resolve({ listing: { list: listToy } }),
    access: () =>
      Promise.resolve({
        access: { read: readToy, render: renderToy, plan: planToy, configuredModel: () => undefined },
      }),
  }),
  // cd <cwd> && [TOY_HOME=<home>] toy resume <id>
  resumeCommand: resumeToy,
  integrations: {
    // No binary: its driver takes part in structure-only certify, seeded from its captured sample.
    certify: {
      command: TOY,
      binFlag: "toy-bin",
      driver: async () => (await import("./certify.ts")).toyDriver,
    },
  },
};
