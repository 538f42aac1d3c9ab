/**
 * Hermes Agent's test material: its store is one state.db; a home that takes handoffs holds a captured one and
 * names a model in config.yaml.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessMaterial } from "../harness-material.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/hermes/", import.meta.url));

export const material: HarnessMaterial = {
  fixtures: FIXTURES,
  prepareHome(home) {
    mkdirSync(home, { recursive: true });
    const database = join(home, "state.db");
    copyFileSync(join(FIXTURES, "0.19.0/text-turns.state.db"), database);
    writeFileSync(join(home, "config.yaml"), 'model:\n  default: "fake-model-1"\n  provider: custom\n');
    return { database };
  },
  placement(fixture) {
    if (!fixture.endsWith(".state.db")) return undefined;
    return {
      role: "session",
      kind: "database",
      place(home) {
        mkdirSync(home, { recursive: true });
        const target = join(home, "state.db");
        copyFileSync(fixture, target);
        return { target, refs: [target] };
      },
    };
  },
};
