/**
 * Start-up pays nothing for the schemas: the embedded versions are listed from generated metadata, and a
 * validator is compiled only when a record of its type is checked. And the binary is built in chunks, so what
 * `--version` and `--help` load is the CLI's entry alone: a command's code, the stores and the libraries sit in
 * chunks loaded when a command runs. Not timed here: `npm run bench` measures.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../lib/runtime.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { tempDir } from "./helpers/tmp.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The descriptor (`index.ts`) of each built-in harness, as the built-in list imports it: one per harness. */
function builtinDescriptors(): string[] {
  const source = readFileSync(join(ROOT, "lib/harnesses/registry.ts"), "utf8");
  const folders = [...source.matchAll(/^import \{ \w+ \} from "\.\/([\w-]+)\/index\.ts";$/gm)].map((m) =>
    m[1]!
  );
  assert.equal(
    folders.length,
    builtinRegistry.harnesses.length,
    `lib/harnesses/registry.ts imports ${
      folders.join(", ")
    } for ${builtinRegistry.harnesses.length} harnesses`,
  );
  return folders.map((folder) => `lib/harnesses/${folder}/index.ts`);
}

/** The module a built-in harness's descriptor loads its listing from (its store's `listing: () => import(...)`). */
function listingModule(descriptor: string): string {
  const source = readFileSync(join(ROOT, descriptor), "utf8");
  const found = /\blisting: \(\) => import\("\.\/([\w-]+\.ts)"\)/.exec(source);
  assert.ok(found, `${descriptor} loads no listing module of its own (\`listing: () => import("./x.ts")\`)`);
  return join(descriptor, "..", found[1]!);
}
const PROBE = join(ROOT, "tests/helpers/startup-probe.ts");
const BUN = join(ROOT, "node_modules/.bin/bun");

test("--version, --help and loading every command compile no schema validator; a record type compiles one", () => {
  const [command, ...args] = scriptArgv(PROBE);
  const result = spawnSync(command!, args, { encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.trim().split("\n");
  assert.match(lines[0]!, /^session-bridge \d+\.\d+\.\d+$/);
  assert.deepEqual(JSON.parse(lines.at(-1)!), { codes: [0, 0], atStartup: 0, afterOneRecordType: 1 });
});

const TERMINAL_PROBE = join(ROOT, "tests/helpers/terminal-probe.ts");

/** What `session-bridge <args>` printed and which built-in modules it asked for, its descriptors pipes. */
function throughPipes(args: string[]): { stdout: string; code: number; asked: string[] } {
  const [command, ...probe] = scriptArgv(TERMINAL_PROBE);
  const result = spawnSync(command!, [...probe, ...args], { encoding: "utf8", stdio: "pipe" });
  assert.equal(result.status, 0, result.stderr);
  const { code, asked } = JSON.parse(result.stderr.trim().split("\n").at(-1)!) as {
    code: number;
    asked: string[];
  };
  return { stdout: result.stdout, code, asked };
}

test("--version and --help in a pipe load no node:tty: a plain line asks no terminal, a pipe is told by fstat", () => {
  const version = throughPipes(["--version"]);
  assert.match(version.stdout, /^session-bridge \d+\.\d+\.\d+\n$/);
  assert.deepEqual(version, { stdout: version.stdout, code: 0, asked: [] });
  const help = throughPipes(["--help"]);
  assert.match(help.stdout, /^Usage: session-bridge /m);
  assert.equal(help.code, 0);
  assert.ok(!help.asked.includes("node:tty"), `--help asked for ${help.asked.join(", ")}`);
});

/** A chunk's static imports of other chunks (`import {...} from "./x.js"`, `export * from "./x.js"`). */
const STATIC_IMPORT = /^(?:import|export)\s[^;]*?\bfrom\s*"(\.\/[^"]+)"|^import\s*"(\.\/[^"]+)"/gm;

/** The chunks loaded before any code runs: the entry and what it statically imports, transitively. */
function startupChunks(dir: string, entry: string): Map<string, string> {
  const chunks = new Map<string, string>();
  const pending = [entry];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (chunks.has(name)) continue;
    const text = readFileSync(join(dir, name), "utf8");
    chunks.set(name, text);
    for (const m of text.matchAll(STATIC_IMPORT)) pending.push((m[1] ?? m[2])!.slice(2));
  }
  return chunks;
}

/** The build's own chunking, unminified so each module keeps its `// path` comment; built once per file. */
const CHUNKS = tempDir("sb-startup-chunks-");
let built = false;
function builtChunks(): string {
  if (built) return CHUNKS;
  const result = spawnSync(BUN, [
    "build",
    "--splitting",
    "--format=esm",
    "--target=bun",
    // As `npm run build`: Ink imports React's devtools only when DEV=true and the package is installed.
    "--external",
    "react-devtools-core",
    "main.ts",
    "--outdir",
    CHUNKS,
  ], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(result.status, 0, result.stderr);
  built = true;
  return CHUNKS;
}

/** The modules in some chunks, by the `// path` comment each starts with. */
const modulesIn = (code: string): string[] =>
  [...code.matchAll(/^\/\/ (\S+\.(?:ts|js|json))$/gm)].map((m) => m[1]!);

/** The runtime's own modules the code imports statically (`from "fs"`, `from "node:sqlite"`), sorted. */
const builtinsIn = (code: string): string[] =>
  [...new Set([...code.matchAll(/^import\s[^;]*?\bfrom\s*"(?:node:)?([a-z_/]+)"/gm)].map((m) => m[1]!))]
    .sort();

test("the binary is built in chunks, and --version loads no library, schema, store or command: only the CLI's entry", () => {
  // `npm run build` and `deno task build` (deno.json is JSONC: its line is matched, not parsed).
  const npmBuild = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.build as string;
  const denoBuild = readFileSync(join(ROOT, "deno.json"), "utf8").match(/^\s*"build":\s*"([^"]*)"/m)?.[1] ??
    "";
  for (const build of [npmBuild, denoBuild]) {
    assert.match(build, /--compile\b/);
    assert.match(build, /--splitting\b/);
  }
  const chunks = startupChunks(builtChunks(), "main.js");
  const code = [...chunks.values()].join("\n");
  const modules = modulesIn(code);
  assert.ok(modules.includes("lib/cli/main.ts"), `start-up modules: ${modules.join(", ")}`);
  assert.deepEqual(modules.filter((m) => m.includes("node_modules/")), []);
  assert.deepEqual(
    modules.filter((m) => m.startsWith("lib/cli/commands/") && m !== "lib/cli/commands/index.ts"),
    [],
  );
  assert.deepEqual(
    modules.filter((m) => /^lib\/(?:generated|schemas|store|pipeline|tui)\//.test(m)),
    [],
  );
  assert.doesNotMatch(code, /"node:sqlite"/);
  // Each built-in costs a compiled binary's start-up milliseconds (node:tty about 5, node:crypto about 6, on a
  // hello-world of 7): output needs fs; the terminal and hashing load theirs when first used.
  assert.deepEqual(builtinsIn(code), ["fs"]);
  assert.ok(code.length < 64 * 1024, `start-up code is ${code.length} bytes: ${modules.join(", ")}`);
});

test("--help loads the harness descriptors' facts only: no library, schema, generated table, store or codec", () => {
  const dir = builtChunks();
  // --help prints what the registry says (harness names, home flags): the registry's chunk and what it
  // statically imports load, on top of the entry; a harness's store and config parsers wait for first use.
  const registry = readdirSync(dir).find((name) =>
    name.endsWith(".js") && /^\/\/ lib\/harnesses\/registry\.ts$/m.test(readFileSync(join(dir, name), "utf8"))
  );
  assert.ok(registry, "no chunk holds lib/harnesses/registry.ts");
  const chunks = new Map([...startupChunks(dir, "main.js"), ...startupChunks(dir, registry)]);
  const code = [...chunks.values()].join("\n");
  const modules = modulesIn(code);
  for (const descriptor of builtinDescriptors()) {
    assert.ok(
      modules.includes(descriptor),
      `--help modules: ${modules.join(", ")}`,
    );
  }
  assert.deepEqual(modules.filter((m) => m.includes("node_modules/")), []);
  assert.deepEqual(modules.filter((m) => /^(?:lib\/)?(?:generated|schemas|store|pipeline)\//.test(m)), []);
  assert.deepEqual(
    modules.filter((m) => /^lib\/harnesses\/[^/]+\/(?:store|codec|certify\/.*)\.ts$/.test(m)),
    [],
  );
  assert.doesNotMatch(code, /"node:sqlite"/);
  // The homes' paths need os and path; no descriptor hashes or asks the terminal to print the help.
  assert.deepEqual(builtinsIn(code), ["fs", "os", "path"]);
});

test("list loads the listing alone: no reader, writer, schema, validator or config parser, no library", () => {
  const dir = builtChunks();
  const holding = (module: string) => {
    const name = readdirSync(dir).find((n) =>
      n.endsWith(".js") && readFileSync(join(dir, n), "utf8").includes(`\n// ${module}\n`)
    );
    assert.ok(name, `no chunk holds ${module}`);
    return name;
  };
  // What `list` imports: the command runner, the command, and each harness's listing (index.ts's `list`).
  const entries = [
    "lib/cli/dispatch.ts",
    "lib/cli/commands/list.ts",
    ...builtinDescriptors().map(listingModule),
  ];
  const chunks = new Map(entries.flatMap((m) => [...startupChunks(dir, holding(m))]));
  const modules = modulesIn([...chunks.values()].join("\n"));
  assert.deepEqual(modules.filter((m) => m.includes("node_modules/")), []);
  assert.deepEqual(modules.filter((m) => /^(?:lib\/)?(?:generated|schemas|ir\/schema)/.test(m)), []);
  assert.deepEqual(
    modules.filter((m) =>
      /^lib\/harnesses\/[^/]+\/(?:read|decode|render|write|register|config|settings)\.ts$/.test(m)
    ),
    [],
  );
  assert.deepEqual(
    modules.filter((m) => /^lib\/pipeline\/(?:load|prepare|convert|handoff)\.ts$/.test(m)),
    [],
  );
});
