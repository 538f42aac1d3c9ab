// Installs a pinned harness into a cache folder outside the repo and returns its runnable executable:
//   ${XDG_CACHE_HOME:-~/.cache}/session-bridge/harnesses/<harness>-<version>
// A finished install (marker file + executable reporting the version) is reused.
//
// npm harnesses ship their real program as a native binary in a platform-specific optional dependency
// (e.g. @anthropic-ai/claude-code-linux-x64/claude). The wrapper package's postinstall only copies that
// binary over a placeholder, and npm 11 may refuse install scripts ("not yet covered by allowScripts").
// So we install with --ignore-scripts and run the native binary from the optional dependency directly:
// the result does not depend on the user's npm script policy.
//
// Older releases (claude-code 1.x and 2.0.x) have no native binary: the wrapper package's `cli.js` is the
// program, run by node. For those the install gets a small `bin/<name>` shell wrapper that execs the node
// found on PATH at install time on that file (exec, so signals sent to the returned pid reach node itself).
//
// Node harnesses with no native binary at all (Gemini CLI, Pi) get the same wrapper around their bundled entry.
//
// PyPI harnesses (Hermes Agent) go into a private Python venv instead (acceptance/python-venv.ts).
//
// A harness being brought up (no descriptor in lib/harnesses yet, so certify cannot drive it) is pinned in
// harness-versions-staged.json instead: it installs by name, but the lists every harness is taken from
// (`--latest` and `--print-latest` with no names, the pins CI compares with the newest) leave it out until its
// pin moves to harness-versions.json.
//
// `--latest` takes the newest published version instead of the pin (npm's `latest` tag, PyPI's newest release),
// asked of each registry through its own client (`npm view`, `pip index versions`).
//
// CLI: npx bun acceptance/install-harness.ts [harness] [version]   (prints the executable path)
//      npx bun acceptance/install-harness.ts --latest [--flags-to FILE] [harness...]
//                       (every harness when none is named; prints "<harness> <version> <path>" per line; with
//                       --flags-to, also writes the `certify` flags naming those executables to FILE, one word
//                       a line, each flag as the harness's descriptor names it: `--claude-bin`, `<path>`, ...)
//      npx bun acceptance/install-harness.ts --print-latest [harness...]   ("<harness> <version>", no install)
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { installPip, latestPipVersion, type PipHarness } from "./python-venv.ts";
import { builtinRegistry, findHarness } from "../lib/harnesses/registry.ts";
import { findOnPath } from "../lib/certify-kit/binaries.ts";

/** An npm package whose executable lives in a per-platform optional dependency, or is a JS entry run by node. */
interface NpmNativeHarness {
  kind: "npm-native";
  /** The wrapper package users install. */
  npmPackage: string;
  /** Optional-dependency package for a platform key such as "linux-x64" or "linux-x64-musl" (none: JS only). */
  nativePackage?: (platformKey: string) => string;
  /** Path of the executable inside the native package. */
  nativeBin?: (platformKey: string) => string;
  /** Releases without a native package: the JS entry point inside the wrapper package, run by node. */
  jsEntry?: string;
  /** Name of the generated wrapper for a `jsEntry` install (`<install>/bin/<name>`). */
  wrapperName: string;
  /** Arguments that print the version, and a check that the output names `version`. */
  versionArgs: string[];
}

// Pinned versions live in harness-versions.json.
type HarnessSpec = NpmNativeHarness | PipHarness;

const HARNESSES: Record<string, HarnessSpec> = {
  "claude-code": {
    kind: "npm-native",
    npmPackage: "@anthropic-ai/claude-code",
    nativePackage: (key) => `@anthropic-ai/claude-code-${key}`,
    nativeBin: (key) => (key.startsWith("win32") ? "claude.exe" : "claude"),
    jsEntry: "cli.js",
    wrapperName: "claude",
    versionArgs: ["--version"],
  },
  // One statically linked (musl) build per OS and CPU, published as `@openai/codex@<version>-<platform>`.
  codex: {
    kind: "npm-native",
    npmPackage: "@openai/codex",
    nativePackage: (key) => `@openai/codex-${key.replace(/-musl$/, "")}`,
    nativeBin: (key) =>
      `vendor/${CODEX_TARGETS[key.replace(/-musl$/, "")] ?? key}/bin/codex${
        key.startsWith("win32") ? ".exe" : ""
      }`,
    wrapperName: "codex",
    versionArgs: ["--version"],
  },
  // Node only: `gemini` is `bundle/gemini.js`; its optional dependencies (node-pty prebuilds, keytar) need no
  // install script.
  "gemini-cli": {
    kind: "npm-native",
    npmPackage: "@google/gemini-cli",
    jsEntry: "bundle/gemini.js",
    wrapperName: "gemini",
    versionArgs: ["--version"],
  },
  // One native (Bun-compiled) binary per platform in `opencode-<platform>`, bin `bin/opencode`.
  opencode: {
    kind: "npm-native",
    npmPackage: "opencode-ai",
    nativePackage: (key) => `opencode-${key}`,
    nativeBin: (key) => (key.startsWith("win32") ? "bin/opencode.exe" : "bin/opencode"),
    wrapperName: "opencode",
    versionArgs: ["--version"],
  },
  // Node only: `pi` is `dist/cli.js` (ESM; engines node >= 20.6); its optional dependencies (clipboard
  // prebuilds) need no install script.
  pi: {
    kind: "npm-native",
    npmPackage: "@mariozechner/pi-coding-agent",
    jsEntry: "dist/cli.js",
    wrapperName: "pi",
    versionArgs: ["--version"],
  },
  // One native binary per platform in `@github/copilot-<os>-<cpu>` (musl Linux: `linuxmusl-<cpu>`), bin
  // `copilot`; the wrapper package holds only the loader that picks it (1.0.12 still shipped `schemas/`; 1.0.92 no longer).
  "copilot-cli": {
    kind: "npm-native",
    npmPackage: "@github/copilot",
    nativePackage: (key) => `@github/copilot-${key.replace(/^linux-(\w+)-musl$/, "linuxmusl-$1")}`,
    nativeBin: (key) => (key.startsWith("win32") ? "copilot.exe" : "copilot"),
    wrapperName: "copilot",
    // Without --no-auto-update (or COPILOT_AUTO_UPDATE=false) the binary runs the newest package unpacked in the
    // user's cache (~/.cache/copilot/pkg/): an older binary beside a newer one reports, and is, the newer (1.0.92
    // said 1.0.102, checked 2026-12-03). Every run of the certify driver passes the flag too.
    versionArgs: ["--no-auto-update", "--version"],
  },
  // Hermes Agent from PyPI into a private venv; `extras` (e.g. "messaging" for the gateway) get their own venv.
  hermes: {
    kind: "pip",
    pipPackage: "hermes-agent",
    executable: "hermes",
    pythons: ["3.11", "3.12", "3.13"],
    pythonEnv: "HERMES_PYTHON",
  },
};

/** The Rust target triple each Codex platform package keeps its binary under. */
const CODEX_TARGETS: Record<string, string> = {
  "linux-x64": "x86_64-unknown-linux-musl",
  "linux-arm64": "aarch64-unknown-linux-musl",
  "darwin-x64": "x86_64-apple-darwin",
  "darwin-arm64": "aarch64-apple-darwin",
  "win32-x64": "x86_64-pc-windows-msvc",
  "win32-arm64": "aarch64-pc-windows-msvc",
};

const MARKER = ".session-bridge-installed";

export type HarnessName = keyof typeof HARNESSES;

export function harnessCacheRoot(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache");
  return join(base, "session-bridge", "harnesses");
}

export function harnessDir(name: string, version: string): string {
  return join(harnessCacheRoot(), `${name}-${version}`);
}

const MANIFEST_PATH = join(dirname(fileURLToPath(import.meta.url)), "harness-versions.json");
const STAGED_MANIFEST_PATH = join(dirname(fileURLToPath(import.meta.url)), "harness-versions-staged.json");
const OLDER_MANIFEST_PATH = join(dirname(fileURLToPath(import.meta.url)), "harness-versions-older.json");

function readPins(path: string): Record<string, string> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
}

/** Pinned versions from acceptance/harness-versions.json: the harnesses of the live matrix. */
export function pinnedVersions(): Record<string, string> {
  return readPins(MANIFEST_PATH);
}

/**
 * The older versions the live matrix also certifies (on exec sessions: the TUI drivers follow the pins), from
 * acceptance/harness-versions-older.json: one per harness of the matrix.
 */
export function olderVersions(): Record<string, string> {
  return readPins(OLDER_MANIFEST_PATH);
}

/** The pin of a matrix harness, or of a staged one (harness-versions-staged.json). */
export function pinnedVersion(name: string): string {
  const v = pinnedVersions()[name] ?? readPins(STAGED_MANIFEST_PATH)[name];
  if (v === undefined) throw new Error(`no pinned version for ${name} in ${MANIFEST_PATH}`);
  return v;
}

/** Installs (or reuses) `name@version` and returns the absolute path of its executable. */
export function installHarness(
  name: string,
  version: string = pinnedVersion(name),
  { extras = [] }: { extras?: string[] } = {},
): Promise<string> {
  const spec = specOf(name);
  if (spec.kind === "pip") {
    const suffix = extras.length ? `-${[...extras].sort().join("-")}` : "";
    return Promise.resolve(installPip(`${harnessDir(name, version)}${suffix}`, spec, version, extras));
  }
  return Promise.resolve(installNpmNative(name, spec, version));
}

function specOf(name: string): HarnessSpec {
  const spec = HARNESSES[name];
  if (spec === undefined) {
    throw new Error(`unknown harness ${name}; known: ${Object.keys(HARNESSES).join(", ")}`);
  }
  return spec;
}

function installNpmNative(name: string, spec: NpmNativeHarness, version: string): string {
  const dir = harnessDir(name, version);
  const reused = findRunnable(dir, spec);
  if (
    reused !== undefined && existsSync(join(dir, MARKER)) && reportsVersion(reused, spec.versionArgs, version)
  ) {
    return reused;
  }
  // Install into a scratch dir and rename, so an interrupted install never looks finished.
  const scratch = `${dir}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ private: true }) + "\n");
  npmInstall(scratch, `${spec.npmPackage}@${version}`);
  if (findNativeBin(scratch, spec) === undefined) writeJsWrapper(scratch, spec, version);
  const bin = findRunnable(scratch, spec);
  if (bin === undefined) {
    throw new Error(`${spec.npmPackage}@${version}: no native binary for ${platformKeys()} and no JS entry`);
  }
  if (!reportsVersion(bin, spec.versionArgs, version)) {
    throw new Error(`${bin} does not report version ${version}`);
  }
  writeFileSync(join(scratch, MARKER), `${spec.npmPackage}@${version}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  const final = findRunnable(dir, spec);
  if (final === undefined) throw new Error(`executable vanished after moving ${scratch} to ${dir}`);
  return final;
}

/** The native binary when the release has one, else the generated wrapper around its JS entry. */
function findRunnable(prefix: string, spec: NpmNativeHarness): string | undefined {
  const native = findNativeBin(prefix, spec);
  if (native !== undefined) return native;
  const wrapper = join(prefix, "bin", spec.wrapperName);
  return existsSync(wrapper) && existsSync(jsEntryPath(prefix, spec) ?? "") ? wrapper : undefined;
}

function jsEntryPath(prefix: string, spec: NpmNativeHarness): string | undefined {
  return spec.jsEntry === undefined ? undefined : join(prefix, "node_modules", spec.npmPackage, spec.jsEntry);
}

/**
 * `bin/<name>`: execs node on the JS entry, found relative to the wrapper so the scratch dir can be renamed.
 * The node path is absolute, so the program runs the same whatever PATH the caller passes.
 */
function writeJsWrapper(prefix: string, spec: NpmNativeHarness, version: string): void {
  const entry = jsEntryPath(prefix, spec);
  if (entry === undefined || !existsSync(entry)) return;
  if (process.platform === "win32") {
    throw new Error(
      `${spec.npmPackage}@${version} ships only ${spec.jsEntry}; the node wrapper is POSIX-only`,
    );
  }
  const node = findOnPath("node", process.env.PATH);
  if (node === undefined) {
    throw new Error(`${spec.npmPackage}@${version} ships only ${spec.jsEntry}: node must be on PATH`);
  }
  const wrapper = join(prefix, "bin", spec.wrapperName);
  mkdirSync(dirname(wrapper), { recursive: true });
  const rel = join("..", "node_modules", spec.npmPackage, spec.jsEntry as string);
  writeFileSync(
    wrapper,
    `#!/bin/sh\n# ${spec.npmPackage}@${version}: ${spec.jsEntry} run by node (written by install-harness.ts)\n` +
      `exec ${shQuote(node)} "$(dirname "$0")/${rel}" "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
}

function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** The newest published version: npm's `latest` dist-tag, or PyPI's newest release. */
export function latestVersion(name: string): string {
  const spec = specOf(name);
  if (spec.kind === "pip") return latestPipVersion(spec);
  const r = spawnSync(NPM, ["view", spec.npmPackage, "version"], { encoding: "utf8", timeout: 120_000 });
  const version = (r.stdout ?? "").trim();
  if (r.status !== 0 || !/^\d+\.\d+\.\d+/.test(version)) {
    throw new Error(
      `npm view ${spec.npmPackage} version failed (${r.status ?? r.signal}): ${r.stderr ?? ""}`,
    );
  }
  return version;
}

/** Every harness of the live matrix (staged ones left out), in a stable order. */
export function harnessNames(): string[] {
  const staged = readPins(STAGED_MANIFEST_PATH);
  return Object.keys(HARNESSES).filter((name) => !(name in staged));
}

function npmInstall(prefix: string, pkgSpec: string): void {
  const args = ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", pkgSpec];
  const r = spawnSync(NPM, args, { cwd: prefix, encoding: "utf8", timeout: 600_000 });
  if (r.status !== 0) {
    throw new Error(
      `npm ${args.join(" ")} failed (${r.status ?? r.signal}): ${r.stderr ?? ""}${r.stdout ?? ""}`,
    );
  }
}

/** Candidate platform keys, most specific first; npm installs only the one matching this machine. */
export function platformKeys(): string[] {
  const base = `${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return [base];
  return isMusl() ? [`${base}-musl`, base] : [base, `${base}-musl`];
}

/** glibc reports its version in the process report; musl does not. */
function isMusl(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report !== undefined && report.header?.glibcVersionRuntime === undefined;
}

function findNativeBin(prefix: string, spec: NpmNativeHarness): string | undefined {
  if (spec.nativePackage === undefined || spec.nativeBin === undefined) return undefined;
  for (const key of platformKeys()) {
    const bin = join(prefix, "node_modules", spec.nativePackage(key), spec.nativeBin(key));
    if (existsSync(bin)) return bin;
  }
  return undefined;
}

// Either stream: Pi prints its version on stderr when stdin is no terminal (it hands stdout to the answer of
// a print-mode run, and treats any run without a terminal as one). The version is a word of its own; a
// sentence's full stop after it counts too (Copilot CLI).
export function reportsVersion(bin: string, versionArgs: string[], version: string): boolean {
  const r = spawnSync(bin, versionArgs, { encoding: "utf8", timeout: 60_000 });
  return r.status === 0 &&
    `${r.stdout ?? ""} ${r.stderr ?? ""}`.split(/\s+/).some((word) =>
      word === version || word === `${version}.`
    );
}

async function main(argv: string[]): Promise<void> {
  // Only asks the registries: `name version` per harness, nothing installed (CI compares them with the pins).
  if (argv[0] === "--print-latest") {
    for (const name of argv.length > 1 ? argv.slice(1) : harnessNames()) {
      console.log(`${name} ${latestVersion(name)}`);
    }
    return;
  }
  if (argv[0] === "--latest") {
    const flagsAt = argv.indexOf("--flags-to");
    const flagsTo = flagsAt > 0 ? argv[flagsAt + 1] : undefined;
    if (flagsAt > 0 && !flagsTo) throw new Error("--flags-to needs a FILE");
    const names = argv.slice(1).filter((_, i) => flagsAt < 0 || (i + 1 !== flagsAt && i + 1 !== flagsAt + 1));
    const flags: string[] = [];
    for (const name of names.length ? names : harnessNames()) {
      const version = latestVersion(name);
      const bin = await installHarness(name, version);
      console.log(`${name} ${version} ${bin}`);
      const binFlag = findHarness(builtinRegistry, name).integrations.certify?.binFlag;
      if (binFlag) flags.push(`--${binFlag}`, bin);
    }
    if (flagsTo) writeFileSync(flagsTo, flags.map((f) => `${f}\n`).join(""));
    return;
  }
  const name = argv[0] ?? "claude-code";
  const version = argv[1] ?? pinnedVersion(name);
  console.log(await installHarness(name, version));
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
