/** Claude Code's test material: a transcript goes in the project bucket of the cwd it records. */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bucketName } from "../../../lib/harnesses/claude-code/bucket.ts";
import type { HarnessMaterial } from "../harness-material.ts";
import { FIXTURE_CWD } from "../fixtures.ts";

export const material: HarnessMaterial = {
  fixtures: fileURLToPath(new URL("../../../fixtures/claude-code/", import.meta.url)),
  prepareHome(home) {
    mkdirSync(home, { recursive: true });
    return {};
  },
  placement(fixture) {
    if (!fixture.endsWith(".jsonl") || fixture.endsWith(".requests.jsonl")) return undefined;
    return {
      role: "session",
      kind: "text",
      place(home) {
        const id = claudeSessionId(fixture) ?? basename(fixture, ".jsonl");
        const target = join(home, "projects", bucketName(FIXTURE_CWD), `${id}.jsonl`);
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(fixture, target);
        return { target, refs: [target] };
      },
    };
  },
};

function claudeSessionId(path: string): string | undefined {
  return /"sessionId":"([0-9a-f-]{36})"/.exec(readFileSync(path, "latin1"))?.[1];
}
