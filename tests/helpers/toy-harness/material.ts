/**
 * The toy's test material (tests/helpers/harness-material.ts): its captured sessions are in fixtures/ beside
 * this file (fixtures/1.0.0/thinking-tool-use.jsonl is Claude Code's captured session of that name converted
 * to the toy), a home that takes a handoff is one with its sessions folder, and a captured session goes in it.
 * Its store is files alone, `sessions/<id>.jsonl`, with no database.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessMaterial } from "../harness-material.ts";
import { appendInTwo, filesUnder, fileThere, tornLines } from "../hostile-store.ts";
import type { ToyHeader } from "./codec.ts";
import { sessionsDir } from "./store.ts";

export const CAPTURED = fileURLToPath(new URL("./fixtures/", import.meta.url));
const HELD = join(CAPTURED, "1.0.0", "thinking-tool-use.jsonl");

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
  hostile: {
    heldSession(home) {
      const { id } = JSON.parse(readFileSync(HELD, "utf8").split("\n")[0]!) as ToyHeader;
      const file = join(sessionsDir(home), `${id}.jsonl`);
      mkdirSync(sessionsDir(home), { recursive: true });
      copyFileSync(HELD, file);
      return { id, file };
    },
    databases: [],
    linkedFolders: [],
    loops: [],
    sessionFileById: true,
    halfSessions: (home) => tornLines(filesUnder(sessionsDir(home), (n) => n.endsWith(".jsonl"))),
    holds: (_home, { path }) => fileThere(path),
    startWriting: (file, _id, pause) => ({
      turn: (n, _at) =>
        appendInTwo(
          file,
          JSON.stringify({
            role: "user",
            kind: "turn",
            blocks: [{ type: "text", text: `typed while being read, turn ${n}` }],
          }),
          pause,
        ),
      close() {},
    }),
  },
};
