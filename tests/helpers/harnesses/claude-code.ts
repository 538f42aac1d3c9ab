/**
 * Claude Code's test material: a transcript goes in the project bucket of the cwd it records. Its store is
 * files alone, `projects/<bucket>/<id>.jsonl`, with no database; `projects` may be a link to another disk.
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bucketName } from "../../../lib/harnesses/claude-code/bucket.ts";
import type { HarnessMaterial } from "../harness-material.ts";
import { FIXTURE_CWD, seedClaudeHome } from "../fixtures.ts";
import { appendInTwo, filesUnder, fileThere, tornLines } from "../hostile-store.ts";

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
  hostile: {
    heldSession(home) {
      const { id, path } = seedClaudeHome(home, "thinking-tool-use");
      return { id, file: path };
    },
    databases: [],
    linkedFolders: ["projects"],
    loops: ["projects/loop"],
    sessionFileById: true,
    halfSessions(home) {
      // `projects` may be linked to another disk: it is followed there, as Claude Code does.
      const projects = join(home, "projects");
      const linked = existsSync(projects) && statSync(projects).isDirectory();
      return tornLines(linked ? filesUnder(projects, (n) => n.endsWith(".jsonl")) : []);
    },
    holds: (_home, { path }) => fileThere(path),
    startWriting(file, id, pause) {
      let parent = lastUuid(file);
      return {
        async turn(n, at) {
          const uuid = randomUUID();
          await appendInTwo(
            file,
            JSON.stringify({
              parentUuid: parent,
              isSidechain: false,
              type: "user",
              message: { role: "user", content: `typed while being read, turn ${n}` },
              uuid,
              timestamp: at.toISOString(),
              sessionId: id,
            }),
            pause,
          );
          parent = uuid;
        },
        close() {},
      };
    },
  },
};

/** The uuid of a transcript's last line, the parent of the next. */
function lastUuid(file: string): string | null {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  return (JSON.parse(lines.at(-1)!) as { uuid?: string }).uuid ?? null;
}

function claudeSessionId(path: string): string | undefined {
  return /"sessionId":"([0-9a-f-]{36})"/.exec(readFileSync(path, "latin1"))?.[1];
}
