/**
 * Gemini CLI's test material: a home is the folder holding `.gemini/`; a captured session goes where its
 * version's manifest says (`.gemini/tmp/<slug>/chats/session-<time>-<id8>.jsonl`), with its subagents' logs
 * beside it, `projects.json` naming its project's slug and the project folder's `.project_root`, as the real
 * binary leaves them. The captured cwd is the neutral `/home/user/project`.
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessMaterial } from "../harness-material.ts";
import { appendInTwo, filesUnder, fileThere, tornLines } from "../hostile-store.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/gemini-cli/", import.meta.url));

/** The project path every capture ran in (neutralized). */
export const GEMINI_CAPTURED_CWD = "/home/user/project";

interface Scenario {
  file: string;
  subagents: string[];
}

/** The scenario a captured file belongs to (its version's manifest.json), if it is a main session log. */
function scenarioOf(fixture: string): Scenario | undefined {
  const name = basename(fixture, ".jsonl");
  // A subagent's log (in `<scenario>.subagents/`) has no manifest beside it: it is placed with its parent.
  const listed = join(dirname(fixture), "manifest.json");
  if (!existsSync(listed)) return undefined;
  const manifest = JSON.parse(readFileSync(listed, "utf8")) as Record<
    string,
    Scenario | undefined
  >;
  const found = Object.hasOwn(manifest, name) ? manifest[name] : undefined;
  return found && `${name}.jsonl` === basename(fixture) ? found : undefined;
}

/** `home` as the binary leaves it once it has run in the captured project: its store and project registry. */
export function makeGeminiHome(home: string, cwd = GEMINI_CAPTURED_CWD, slug = "project"): string {
  const store = join(home, ".gemini");
  mkdirSync(join(store, "tmp", slug, "chats"), { recursive: true });
  mkdirSync(join(store, "history", slug), { recursive: true });
  writeFileSync(join(store, "projects.json"), `${JSON.stringify({ projects: { [cwd]: slug } }, null, 2)}\n`);
  writeFileSync(join(store, "tmp", slug, ".project_root"), cwd);
  writeFileSync(join(store, "history", slug, ".project_root"), cwd);
  return store;
}

/** Places a captured session (and its subagents) in `home`; returns the session file's path there. */
export function seedGeminiHome(fixture: string, home: string): string {
  const scenario = scenarioOf(fixture);
  if (!scenario) throw new Error(`${fixture}: no scenario of its manifest`);
  makeGeminiHome(home);
  const target = join(home, scenario.file);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(fixture, target);
  const captured = join(dirname(fixture), `${basename(fixture, ".jsonl")}.subagents`);
  for (const sub of scenario.subagents) {
    const placed = join(home, sub);
    mkdirSync(dirname(placed), { recursive: true });
    copyFileSync(join(captured, basename(sub)), placed);
  }
  return target;
}

/** The captured subagent files of a scenario (for tests that read them by hand). */
export function capturedSubagents(fixture: string): string[] {
  const dir = join(dirname(fixture), `${basename(fixture, ".jsonl")}.subagents`);
  try {
    return readdirSync(dir).map((f) => join(dir, f));
  } catch {
    return [];
  }
}

export const material: HarnessMaterial = {
  fixtures: FIXTURES,
  prepareHome(home) {
    makeGeminiHome(home);
    return {};
  },
  placement(fixture) {
    if (!scenarioOf(fixture)) return undefined;
    return {
      role: "session",
      kind: "text",
      place(home) {
        const target = seedGeminiHome(fixture, home);
        return { target, refs: [target] };
      },
    };
  },
  hostile: {
    heldSession(home) {
      const file = seedGeminiHome(join(FIXTURES, "0.61.0", "exec-tool.jsonl"), home);
      return { id: JSON.parse(readFileSync(file, "utf8").split("\n", 1)[0]!).sessionId as string, file };
    },
    databases: [],
    // A user may keep the whole store, its sessions or one project's chats on another disk: Gemini follows.
    linkedFolders: [".gemini", ".gemini/tmp", ".gemini/tmp/project/chats"],
    loops: [".gemini/tmp/loop", ".gemini/tmp/project/chats/loop"],
    // Named by the minute it started and the first 8 characters of its id (session-<minute>-<id8>.jsonl).
    sessionFileById: false,
    halfSessions: geminiHalfSessions,
    holds: (_home, { path }) => fileThere(path),
    startWriting: (file, _id, pause) => ({
      // A turn as the live CLI appends it: each message, then the metadata's `lastUpdated`.
      async turn(n, at) {
        const stamp = at.toISOString();
        const records = [
          {
            id: randomUUID(),
            timestamp: stamp,
            type: "user",
            content: [{ text: `typed while being read, turn ${n}` }],
          },
          { $set: { lastUpdated: stamp } },
          {
            id: randomUUID(),
            timestamp: stamp,
            type: "gemini",
            content: `answer ${n}`,
            model: "gemini-3.8-flash",
          },
          { $set: { lastUpdated: stamp } },
        ];
        for (const record of records) await appendInTwo(file, JSON.stringify(record), pause);
      },
      close() {},
    }),
  },
};

/**
 * A Gemini home's half sessions: a session log with a torn line (in every project's chats, through a folder
 * linked elsewhere, as Gemini follows it), a `projects.json` Gemini cannot read (it would reset it, losing every
 * project's entry), and a project folder holding sessions that neither `projects.json` nor its `.project_root`
 * ties to a directory (Gemini would never look there).
 */
function geminiHalfSessions(home: string): string[] {
  const store = join(home, ".gemini");
  const tmp = join(store, "tmp");
  const registry = join(store, "projects.json");
  let slugs: Set<string> | undefined = new Set();
  if (fileThere(registry)) {
    try {
      const { projects } = JSON.parse(readFileSync(registry, "utf8")) as { projects: Record<string, string> };
      slugs = new Set(Object.values(projects));
    } catch {
      slugs = undefined;
    }
  }
  const half = slugs ? [] : [`${registry}: Gemini CLI cannot read it`];
  for (const slug of folders(tmp)) {
    const logs = filesUnder(join(tmp, slug, "chats"), (n) => n.endsWith(".jsonl"));
    half.push(...tornLines(logs));
    const tied = !slugs || slugs.has(slug) || fileThere(join(tmp, slug, ".project_root"));
    if (logs.length && !tied) half.push(`${join(tmp, slug)}: sessions of no project Gemini CLI knows`);
  }
  return half;
}

/** The folders in `dir` (through links, as Gemini goes), none when it cannot be read. */
function folders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
