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
// CLI: npx bun acceptance/install-harness.ts [harness] [version]   (prints the executable path)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** An npm package whose executable lives in a per-platform optional dependency. */
interface NpmNativeHarness {
  kind: "npm-native";
  /** The wrapper package users install. */
  npmPackage: string;
  /** Optional-dependency package for a platform key such as "linux-x64" or "linux-x64-musl". */
  nativePackage: (platformKey: string) => string;
  /** Path of the executable inside the native package. */
  nativeBin: (platformKey: string) => string;
  /** Arguments that print the version, and a check that the output names `version`. */
  versionArgs: string[];
}

// Later entries (codex: @openai/codex + @openai/codex-<platform>, hermes: a pip kind) go here,
// with their pinned versions in harness-versions.json.
type HarnessSpec = NpmNativeHarness;

const HARNESSES: Record<string, HarnessSpec> = {
  "claude-code": {
    kind: "npm-native",
    npmPackage: "@anthropic-ai/claude-code",
    nativePackage: (key) => `@anthropic-ai/claude-code-${key}`,
    nativeBin: (key) => (key.startsWith("win32") ? "claude.exe" : "claude"),
    versionArgs: ["--version"],
  },
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

/** Pinned versions from acceptance/harness-versions.json. */
export function pinnedVersions(): Record<string, string> {
  return JSON.parse(readFileSync(MANIFEST_PATH, "utf8")) as Record<string, string>;
}

export function pinnedVersion(name: string): string {
  const v = pinnedVersions()[name];
  if (v === undefined) throw new Error(`no pinned version for ${name} in ${MANIFEST_PATH}`);
  return v;
}

/** Installs (or reuses) `name@version` and returns the absolute path of its executable. */
export function installHarness(name: string, version: string = pinnedVersion(name)): Promise<string> {
  const spec = HARNESSES[name];
  if (spec === undefined) {
    throw new Error(`unknown harness ${name}; known: ${Object.keys(HARNESSES).join(", ")}`);
  }
  return Promise.resolve(installNpmNative(name, spec, version));
}

function installNpmNative(name: string, spec: NpmNativeHarness, version: string): string {
  const dir = harnessDir(name, version);
  const reused = findNativeBin(dir, spec);
  if (reused !== undefined && existsSync(join(dir, MARKER)) && reportsVersion(reused, spec, version)) {
    return reused;
  }
  // Install into a scratch dir and rename, so an interrupted install never looks finished.
  const scratch = `${dir}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ private: true }) + "\n");
  npmInstall(scratch, `${spec.npmPackage}@${version}`);
  const bin = findNativeBin(scratch, spec);
  if (bin === undefined) {
    throw new Error(`${spec.npmPackage}@${version}: no native binary for ${platformKeys()}`);
  }
  if (!reportsVersion(bin, spec, version)) throw new Error(`${bin} does not report version ${version}`);
  writeFileSync(join(scratch, MARKER), `${spec.npmPackage}@${version}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  const final = findNativeBin(dir, spec);
  if (final === undefined) throw new Error(`native binary vanished after moving ${scratch} to ${dir}`);
  return final;
}

function npmInstall(prefix: string, pkgSpec: string): void {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", pkgSpec];
  const r = spawnSync(npm, args, { cwd: prefix, encoding: "utf8", timeout: 600_000 });
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
  for (const key of platformKeys()) {
    const bin = join(prefix, "node_modules", spec.nativePackage(key), spec.nativeBin(key));
    if (existsSync(bin)) return bin;
  }
  return undefined;
}

function reportsVersion(bin: string, spec: NpmNativeHarness, version: string): boolean {
  const r = spawnSync(bin, spec.versionArgs, { encoding: "utf8", timeout: 60_000 });
  return r.status === 0 && (r.stdout ?? "").split(/\s+/).includes(version);
}

async function main(argv: string[]): Promise<void> {
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
