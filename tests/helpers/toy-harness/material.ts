/**
 * The toy's test material (tests/helpers/harness-material.ts): its captured sessions are in fixtures/ beside
 * this file (fixtures/1.0.0/thinking-tool-use.jsonl is Claude Code's captured session of that name converted
 * to the toy), a home that takes a handoff is one with its sessions folder, and a captured session goes in it.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessMaterial } from "../harness-material.ts";
import { sessionsDir } from "./store.ts";

export const CAPTURED = fileURLToPath(new URL("./fixtures/", import.meta.url));

export const material: HarnessMaterial = {
  fixtures: CAPTURED,
  prepareHome(home) {
    mkdirSync(sessionsDir(home), { recursive: true });
    return {};
  },
  placement(fixture) {
    if (!fixture.endsWith(".jsonl")) return undefined;
    return {
      role: "session",
      kind: "text",
      place(home) {
        mkdirSync(sessionsDir(home), { recursive: true });
        const target = join(sessionsDir(home), basename(fixture));
        copyFileSync(fixture, target);
        return { target, refs: [target] };
      },
    };
  },
};
