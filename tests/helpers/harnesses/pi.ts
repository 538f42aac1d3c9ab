/**
 * Pi's test material: a home is Pi's agent folder (PI_CODING_AGENT_DIR); a captured session goes where its
 * version's manifest says, `sessions/--home-user-project--/<time>_<id>.jsonl` (the manifest names it under
 * `agent/`, the capture's agent folder), with every other file its scenario left beside it (a fork's source).
 * The captured cwd is the neutral `/home/user/project`.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessMaterial } from "../harness-material.ts";
import { appendInTwo, filesUnder, fileThere, tornLines } from "../hostile-store.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/pi/", import.meta.url));

/** The project path every capture ran in (neutralized), and the folder Pi keeps its sessions in. */
export const PI_CAPTURED_CWD = "/home/user/project";
export const PI_PROJECT_FOLDER = "--home-user-project--";

/** A file the capture took from the agent folder (relative to the capture's root), and its fixture's name. */
interface TakenFile {
  file: string;
  written: string;
}

interface Scenario {
  files: TakenFile[];
}

/** The capture's path of a file, relative to the agent folder (the manifest names it under `agent/`). */
const inHome = (file: string) => file.replace(/^agent\//, "");

/** The scenario a captured file is a session file of, and its place in a home, when it is one. */
function capturedOf(fixture: string): { scenario: Scenario; folder: string; target: string } | undefined {
  const folder = dirname(fixture);
  if (!existsSync(join(folder, "manifest.json"))) return undefined;
  const name = basename(fixture).split(".")[0]!;
  const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as Record<
    string,
    Scenario
  >;
  const scenario = Object.hasOwn(manifest, name) ? manifest[name] : undefined;
  const taken = scenario?.files.find((f) => f.written === basename(fixture));
  return scenario && taken ? { scenario, folder, target: inHome(taken.file) } : undefined;
}

/** Makes `home` an agent folder with the captured project's session folder, as a first run leaves it. */
export function makePiHome(home: string): string {
  const folder = join(home, "sessions", PI_PROJECT_FOLDER);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** Places a captured session in `home` with every file its scenario left; returns the given file's path there. */
export function seedPiHome(fixture: string, home: string): string {
  const captured = capturedOf(fixture);
  if (!captured) throw new Error(`${fixture}: no session file of a scenario of its manifest`);
  makePiHome(home);
  for (const { file, written } of captured.scenario.files) {
    mkdirSync(dirname(join(home, inHome(file))), { recursive: true });
    copyFileSync(join(captured.folder, written), join(home, inHome(file)));
  }
  return join(home, captured.target);
}

/** The id of a session file's last entry: the leaf the next entry Pi appends is a child of. */
function leafId(file: string): string | null {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  for (const line of lines.reverse()) {
    try {
      const entry = JSON.parse(line) as { type?: string; id?: unknown };
      if (entry.type !== "session" && typeof entry.id === "string") return entry.id;
    } catch {
      // A torn line is no entry: Pi skips it too.
    }
  }
  return null;
}

export const material: HarnessMaterial = {
  fixtures: FIXTURES,
  prepareHome(home) {
    makePiHome(home);
    return {};
  },
  placement(fixture) {
    if (!capturedOf(fixture)) return undefined;
    return {
      role: "session",
      kind: "text",
      place(home) {
        const target = seedPiHome(fixture, home);
        return { target, refs: [target] };
      },
    };
  },
  // A fork's second file (`<scenario>.2.jsonl`) is a session of its own.
  alsoSession: (fixture) => !!capturedOf(fixture),
  hostile: {
    heldSession(home) {
      const file = seedPiHome(join(FIXTURES, "0.73.1", "exec-tools.jsonl"), home);
      const header = JSON.parse(readFileSync(file, "utf8").split("\n", 1)[0]!) as { id: string };
      return { id: header.id, file };
    },
    databases: [],
    // A user may keep the whole agent folder, its sessions or one project's on another disk: Pi follows.
    linkedFolders: ["sessions", `sessions/${PI_PROJECT_FOLDER}`],
    loops: ["sessions/loop", `sessions/${PI_PROJECT_FOLDER}/loop`],
    // Named by the time it started and its id (`<time>_<id>.jsonl`).
    sessionFileById: false,
    halfSessions: (home) => tornLines(filesUnder(join(home, "sessions"), (n) => n.endsWith(".jsonl"))),
    holds: (_home, { path }) => fileThere(path),
    startWriting: (file, _id, pause) => ({
      // A turn as Pi appends it: the user's message, then the answer, each the child of the entry before.
      async turn(n, at) {
        const stamp = at.toISOString();
        let parentId = leafId(file);
        const entries = [
          { role: "user", content: [{ type: "text", text: `typed while being read, turn ${n}` }] },
          {
            role: "assistant",
            content: [{ type: "text", text: `answer ${n}` }],
            api: "openai-completions",
            provider: "fake",
            model: "fake-model",
            usage: {
              input: 1,
              output: 1,
              cacheRead: 0,
              cacheWrite: 0,
              totalTokens: 2,
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
            },
            stopReason: "stop",
          },
        ];
        for (const [i, message] of entries.entries()) {
          const id = `${(n * 2 + i).toString(16).padStart(8, "0")}`.slice(-8);
          const entry = {
            type: "message",
            id,
            parentId,
            timestamp: stamp,
            message: { ...message, timestamp: at.getTime() },
          };
          await appendInTwo(file, JSON.stringify(entry), pause);
          parentId = id;
        }
      },
      close() {},
    }),
  },
};
