/**
 * What a harness brings to the tests and campaigns that span harnesses, found from its NAME in the registry,
 * never from a list: whatever spans harnesses takes them from a registry and asks here for each one's
 * material, so a harness added to the registry is covered at once, or the test or campaign fails saying which
 * material it lacks (never a silent skip).
 *
 * The convention (docs/ADDING-A-HARNESS.md):
 *   - `fixtures/<name>/<version>/`: sessions captured from the real binary, one folder per version. A captured
 *     session is, for a harness that keeps them in files holding many (`files.sessionsInFile`), such a file
 *     (`text-turns.state.db`), listed once placed as the harness's store; else `<scenario><extension>` (one of
 *     its `files.extensions`, no other dot in the name: `plain-text.jsonl`, not its companion
 *     `plain-text.requests.jsonl`), or a file its material's `alsoSession` claims (a legacy form).
 *   - `tests/helpers/harnesses/<name>.ts`: exports `material` (`HarnessMaterial`): how to make a home that takes a
 *     handoff, and where a captured file goes in a home (the fuzz campaign mutates it there).
 * A harness outside the built-in list (the toy, tests/helpers/toy-harness/) comes as a harness module
 * (`HarnessModule`: `harness` and `material` exported side by side) that the campaigns take with
 * `--harness-module PATH`, and tests with `coverage(registry, [module])`.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtinRegistry, type Registry, withHarness } from "../../lib/harnesses/registry.ts";
import type { Harness } from "../../lib/harnesses/types.ts";
import { compareVersions } from "../../lib/schemas/compare.ts";
import type { FileKind } from "../../campaigns/fuzz/mutate.ts";

export const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const MATERIAL = fileURLToPath(new URL("./harnesses/", import.meta.url));

/** A captured file placed in a home: the file a mutation changes, and what `load` is given for it. */
export interface Placed {
  target: string;
  refs: string[];
}

/** Where a captured file of the harness goes in its home, if it is one the harness keeps in its store. */
export interface Placement {
  /** A session (its text fields are there to read), or a store file that is not one (an index database). */
  role: "session" | "store";
  kind: FileKind;
  place(home: string): Placed;
}

/** A home made ready to take a handoff, as the harness leaves it on a machine where it has run. */
export interface PreparedHome {
  /** The database a handoff writes into, when the store is one (checked with PRAGMA integrity_check). */
  database?: string;
}

export interface HarnessMaterial {
  /** The folder of captured sessions, one folder per version (`fixtures/<name>/`). */
  fixtures: string;
  /** Makes `home` (created if absent) a home a handoff can write into. */
  prepareHome(home: string): PreparedHome;
  /** Where a captured file goes in a home; undefined: none of its store's (it is loaded as a path). */
  placement(fixture: string): Placement | undefined;
  /**
   * Whether a captured file the convention's `<scenario><extension>` leaves out is a session all the same (a
   * legacy form its reader knows by its head, a scenario's second session); absent: the convention's only.
   */
  alsoSession?(fixture: string): boolean;
  /**
   * The sessions a version's fixtures keep in the store's own layout, one folder per scenario
   * (`<scenario>/session-state/<id>/events.jsonl`), for a harness whose session is a file among others of a
   * folder; absent: the files of the version folder itself, by the convention.
   */
  scenarioSessions?(versionFolder: string): string[];
  /**
   * What the hostile campaigns (campaigns/hostile) do to the harness's store and check of it. Optional here
   * because only they need it: they refuse to start, saying what to add, for a harness without it.
   */
  hostile?: HostileMaterial;
}

/** A database of a harness's store, relative to its home, with the tables its sessions are rows of. */
export interface StoreDatabase {
  file: string;
  /** Counted before and after a refused handoff: a refusal leaves each as it was. */
  tables: readonly string[];
}

/** A session a home holds: its id, and the file it lives in (the database, for a session that is a row). */
export interface HeldSession {
  id: string;
  file: string;
}

/** A harness at work on a session: `turn` adds one turn as the harness writes it, `close` lets go of it. */
export interface TurnWriter {
  turn(n: number, at: Date): Promise<void>;
  close(): void;
}

/**
 * A harness's store as the hostile campaigns see it. Where something does not apply (a store without a
 * database, without a folder to link elsewhere), it is an empty list: an absent member is material missing.
 */
export interface HostileMaterial {
  /**
   * A session in `home` (made by `prepareHome`) as the real binary leaves it: one it adds, or one the prepared
   * home already holds. The campaigns' worlds hold one in each home, and the reads campaign writes turns to it.
   */
  heldSession(home: string): HeldSession;
  /** The store's databases (each passes PRAGMA integrity_check after a case, is linked and made read-only). */
  databases: readonly StoreDatabase[];
  /** Folders of a home a user may keep on another disk through a link, which the harness follows. */
  linkedFolders: readonly string[];
  /** Places in a home where a link to itself may sit (a loop no walk of the store may follow). */
  loops: readonly string[];
  /**
   * Whether a session lands as a file named by its id alone in a folder of its own: a `--force` handoff under
   * the same id then rewrites that very path (a link there is what it replaces), and an undo removes it from
   * that folder (which may be read-only).
   */
  sessionFileById: boolean;
  /** Each half session in `home` in one line (a torn line, a file without its index row or the reverse). */
  halfSessions(home: string): string[];
  /** Whether a handed-off session (its ledger entry's id and path) is in `home`; undefined: cannot tell. */
  holds(home: string, session: { id: string; path: string }): boolean | undefined;
  /**
   * Starts writing turns to the session `id` of `file` as the harness does, taking `pause` where a reader may
   * come upon the turn half-written (a child process of the campaign runs it; `pause` is its timer).
   */
  startWriting(file: string, id: string, pause: () => Promise<void>): TurnWriter;
}

/** A harness that is not built in, with its material: what `--harness-module PATH` names. */
export interface HarnessModule {
  harness: Harness;
  material: HarnessMaterial;
}

/** A harness of the registry under test, with its material. */
export interface Covered {
  harness: Harness;
  material: HarnessMaterial;
}

/** What a harness lacks to be covered: the message says what to add, and where. */
export class MissingMaterial extends Error {}

/** The built-in harness `name`'s material, by the convention (tests/helpers/harnesses/<name>.ts). */
export async function builtinMaterial(name: string): Promise<HarnessMaterial> {
  const path = join(MATERIAL, `${name}.ts`);
  if (!existsSync(path)) {
    throw new MissingMaterial(
      `harness ${name} has no test material: add tests/helpers/harnesses/${name}.ts exporting \`material\``,
    );
  }
  const { material } = (await import(pathToFileURL(path).href)) as { material?: HarnessMaterial };
  if (!material) throw new MissingMaterial(`tests/helpers/harnesses/${name}.ts exports no \`material\``);
  return material;
}

/** A harness module, by path or URL: refused when it exports no `harness` or no `material`. */
export async function loadHarnessModule(where: string): Promise<HarnessModule> {
  const url = where.startsWith("file:") ? where : pathToFileURL(where).href;
  const loaded = (await import(url)) as Partial<HarnessModule>;
  if (!loaded.harness || !loaded.material) {
    throw new MissingMaterial(`${where}: a harness module exports \`harness\` and \`material\``);
  }
  return { harness: loaded.harness, material: loaded.material };
}

/**
 * `registry` with each module's harness added, and every harness of it with its material: a module's own, else
 * the built-in convention's by name.
 */
export async function coverage(
  registry: Registry = builtinRegistry,
  modules: readonly HarnessModule[] = [],
): Promise<{ registry: Registry; covered: Covered[] }> {
  const extended = modules.reduce((r, m) => withHarness(r, m.harness), registry);
  const covered = await Promise.all(extended.harnesses.map(async (harness) => ({
    harness,
    material: modules.find((m) => m.harness === harness)?.material ?? await builtinMaterial(harness.name),
  })));
  return { registry: extended, covered };
}

/** The built-in harnesses with their material (top-level await in a test file). */
export const builtinCoverage = (): Promise<Covered[]> => coverage().then((c) => c.covered);

/** The version folders of a harness's captured sessions; none is missing material. */
export function capturedVersions({ harness, material }: Covered): string[] {
  const versions = existsSync(material.fixtures)
    ? readdirSync(material.fixtures).filter((v) => statSync(join(material.fixtures, v)).isDirectory())
    : [];
  if (!versions.length) {
    throw new MissingMaterial(
      `harness ${harness.name} has no captured sessions: add ${material.fixtures}<version>/ (from its real binary)`,
    );
  }
  return versions;
}

/** One captured session, as a reference its harness's reader takes. */
export interface CapturedSession {
  harness: Harness;
  version: string;
  /** A file, or `<file>#<id>` for a session of a file that holds many. */
  ref: string;
  /** `<harness> <version> <file>[ <id>]`, for test names. */
  label: string;
}

/**
 * Every session a harness's fixtures hold (see the convention above); a file holding many is copied into a
 * private home under `scratch` as the harness's store and listed there.
 */
export async function capturedSessions(covered: Covered, scratch: string): Promise<CapturedSession[]> {
  const { harness } = covered;
  const out: CapturedSession[] = [];
  for (const version of capturedVersions(covered)) {
    const folder = join(covered.material.fixtures, version);
    for (const path of covered.material.scenarioSessions?.(folder) ?? []) {
      out.push({
        harness,
        version,
        ref: path,
        label: `${harness.name} ${version} ${relative(folder, path)}`,
      });
    }
    for (const file of readdirSync(folder).sort()) {
      const path = join(folder, file);
      if (!statSync(path).isFile()) continue;
      const label = `${harness.name} ${version} ${file}`;
      if (harness.files.sessionsInFile?.length) {
        if (!endsAs(file, harness.files.sessionsInFile)) continue;
        const home = join(scratch, harness.name, version, file);
        mkdirSync(home, { recursive: true });
        copyFileSync(path, harness.store.locate(home));
        for (const row of await harness.store.list(home)) {
          out.push({ harness, version, ref: row.path, label: `${label} ${row.id}` });
        }
      } else if (isScenario(file, harness.files.extensions) || covered.material.alsoSession?.(path)) {
        out.push({ harness, version, ref: path, label });
      }
    }
  }
  if (!out.length) {
    throw new MissingMaterial(
      `harness ${harness.name} has no captured session under ${covered.material.fixtures}`,
    );
  }
  return out;
}

/** The captured file `name` (`interactive.jsonl`) of the newest version that has it, if any. */
export function capturedFile(covered: Covered, name: string): string | undefined {
  const versions = capturedVersions(covered).sort(compareVersions);
  const folder = versions.findLast((v) => existsSync(join(covered.material.fixtures, v, name)));
  return folder && join(covered.material.fixtures, folder, name);
}

const endsAs = (file: string, endings: readonly string[] | undefined) =>
  !!endings?.some((e) => file.endsWith(e));

/** `<scenario><extension>` with no other dot: `plain-text.jsonl`, not `plain-text.requests.jsonl`. */
const isScenario = (file: string, extensions: readonly string[]) =>
  extensions.some((e) => file.endsWith(e) && !basename(file, e).includes("."));

/**
 * What a cross-harness test expects of harness `name`, from its table of expectations: a harness the table
 * lacks fails the test saying what to add, never `undefined` compared.
 */
export function expectedFor<T>(table: Readonly<Record<string, T>>, name: string, what: string): T {
  if (!Object.hasOwn(table, name)) {
    throw new MissingMaterial(`no ${what} is expected of harness ${name}: add it`);
  }
  return table[name]!;
}

/** Each harness's home under `root`, made ready to take a handoff, as the CLI's home flags name them. */
export function preparedHomes(
  covered: readonly Covered[],
  root: string,
): { homes: Record<string, string>; flags: string[] } {
  const homes = Object.fromEntries(covered.map(({ harness, material }) => {
    const home = join(root, harness.name);
    material.prepareHome(home);
    return [harness.name, home];
  }));
  const flags = covered.flatMap(({ harness }) => [`--${harness.home.flag}`, homes[harness.name]!]);
  return { homes, flags };
}

/**
 * `[--harness-module PATH]... ARGS` as a child process of a campaign is given it: the built-in registry with
 * each module's harness, and the arguments after the modules.
 */
export async function registryOfArgs(
  argv: readonly string[],
): Promise<{ registry: Registry; rest: string[] }> {
  const { modules, rest } = moduleArgs(argv);
  const { registry } = await coverage(builtinRegistry, await Promise.all(modules.map(loadHarnessModule)));
  return { registry, rest };
}

/** The paths of the leading `--harness-module PATH` flags of `argv`, and the arguments after them. */
export function moduleArgs(argv: readonly string[]): { modules: string[]; rest: string[] } {
  const rest = [...argv];
  const modules: string[] = [];
  while (rest[0] === "--harness-module" && rest[1]) modules.push(rest.splice(0, 2)[1]!);
  return { modules, rest };
}
