/**
 * Gemini CLI's test material: a home is the folder holding `.gemini/`; a captured session goes where its
 * version's manifest says (`.gemini/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, a legacy `.json` for 0.36.0),
 * with everything else its scenario left in the store beside it (subagents' logs, the legacy `.json` a resume
 * migrated, the stub a resume in a later minute made, a second project's session), `projects.json` naming each
 * project's slug and each project folder's `.project_root`, as the real binary leaves them. The captured cwd is
 * the neutral `/home/user/project`.
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

/** A file the capture took from the store: where it was (relative to the home), and its fixture's name. */
interface TakenFile {
  file: string;
  written: string;
}

/** A scenario of a version's manifest.json, as far as placing its files goes. */
interface Scenario {
  file: string;
  subagents: string[];
  /** The legacy `.json` a resume by a newer version migrated to `file`. */
  legacy?: TakenFile;
  /** Files a resume in a later minute made beside `file` under the same id8. */
  stubs?: TakenFile[];
  /** The session of a second project (fixture `<scenario>.second.jsonl`, registry `<scenario>.projects.json`). */
  second?: { slug: string; file: string };
}

/** A captured file of a scenario, with where it goes in a home (relative to it). */
interface Captured {
  name: string;
  scenario: Scenario;
  folder: string;
  target: string;
  subagent: boolean;
}

function manifestOf(folder: string): Record<string, Scenario | undefined> {
  return JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as Record<
    string,
    Scenario | undefined
  >;
}

/** Every store file a scenario's capture left: the fixture's name and where it goes in a home. */
function storeFiles(name: string, scenario: Scenario): TakenFile[] {
  const main = {
    file: scenario.file,
    written: `${name}${scenario.file.slice(scenario.file.lastIndexOf("."))}`,
  };
  return [
    main,
    ...(scenario.legacy ? [scenario.legacy] : []),
    ...(scenario.stubs ?? []),
    ...(scenario.second ? [{ file: scenario.second.file, written: `${name}.second.jsonl` }] : []),
  ];
}

/**
 * The scenario a captured file is a store file of (its version's manifest.json), if it is one: a session file
 * the capture took, or a subagent's log (`<scenario>.subagents/<id>.jsonl`).
 */
function capturedOf(fixture: string): Captured | undefined {
  const inSubagents = basename(dirname(fixture)).endsWith(".subagents");
  const folder = inSubagents ? dirname(dirname(fixture)) : dirname(fixture);
  if (!existsSync(join(folder, "manifest.json"))) return undefined;
  const name = basename(inSubagents ? dirname(fixture) : fixture).split(".")[0]!;
  const manifest = manifestOf(folder);
  const scenario = Object.hasOwn(manifest, name) ? manifest[name] : undefined;
  if (!scenario) return undefined;
  const target = inSubagents
    ? scenario.subagents.find((s) => basename(s) === basename(fixture))
    : storeFiles(name, scenario).find((f) => f.written === basename(fixture))?.file;
  return target === undefined ? undefined : { name, scenario, folder, target, subagent: inSubagents };
}

/**
 * Registers a project in `home` as the binary does (projects.json maps its path to its slug, its folders under
 * `tmp/` and `history/` hold `.project_root`), keeping the projects already registered; returns the store.
 */
export function makeGeminiHome(home: string, cwd = GEMINI_CAPTURED_CWD, slug = "project"): string {
  const store = join(home, ".gemini");
  mkdirSync(join(store, "tmp", slug, "chats"), { recursive: true });
  mkdirSync(join(store, "history", slug), { recursive: true });
  const registry = join(store, "projects.json");
  const projects = existsSync(registry)
    ? (JSON.parse(readFileSync(registry, "utf8")) as { projects: Record<string, string> }).projects
    : {};
  writeFileSync(registry, `${JSON.stringify({ projects: { ...projects, [cwd]: slug } }, null, 2)}\n`);
  writeFileSync(join(store, "tmp", slug, ".project_root"), cwd);
  writeFileSync(join(store, "history", slug, ".project_root"), cwd);
  return store;
}

/** The path of a second project's slug, as the scenario's own projects.json registered it. */
function secondProjectPath({ name, folder, scenario }: Captured, slug: string): string {
  const { projects } = JSON.parse(readFileSync(join(folder, `${name}.projects.json`), "utf8")) as {
    projects: Record<string, string>;
  };
  const cwd = Object.entries(projects).find(([, s]) => s === slug)?.[0];
  if (!cwd) throw new Error(`${name}: its projects.json names no project ${slug} (${scenario.second?.file})`);
  return cwd;
}

/**
 * Places a captured store file in `home` with every other file its scenario left in the store (its subagents'
 * logs, a migrated legacy `.json`, a stub, a second project's session); returns the given file's path there.
 */
export function seedGeminiHome(fixture: string, home: string): string {
  const captured = capturedOf(fixture);
  if (!captured) throw new Error(`${fixture}: no store file of a scenario of its manifest`);
  const { name, scenario, folder } = captured;
  makeGeminiHome(home);
  if (scenario.second) {
    makeGeminiHome(home, secondProjectPath(captured, scenario.second.slug), scenario.second.slug);
  }
  for (const { file, written } of storeFiles(name, scenario)) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    copyFileSync(join(folder, written), join(home, file));
  }
  for (const sub of scenario.subagents) {
    const placed = join(home, sub);
    mkdirSync(dirname(placed), { recursive: true });
    copyFileSync(join(folder, `${name}.subagents`, basename(sub)), placed);
  }
  return join(home, captured.target);
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
    if (!capturedOf(fixture)) return undefined;
    return {
      role: "session",
      kind: "text",
      place(home) {
        const target = seedGeminiHome(fixture, home);
        return { target, refs: [target] };
      },
    };
  },
  // A legacy whole-session `.json` (known by its head, not its extension) and a second project's session are
  // sessions a reader takes by path; a stub, which never held a turn, and a subagent's log, part of its
  // parent's session, are no sessions the CLI would list.
  alsoSession(fixture) {
    const captured = capturedOf(fixture);
    return !!captured && !captured.subagent &&
      !captured.scenario.stubs?.some((s) => s.file === captured.target);
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
