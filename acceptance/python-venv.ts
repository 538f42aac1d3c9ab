// Private Python venvs for PyPI packages the tests, benches and acceptance runner need: Hermes Agent (a harness,
// under harnesses/) and reference implementations we stay compatible with (LazyBridge, agent-session-bridge,
// under venvs/<pkg>-<version>). One venv per package and version; a venv whose package already reports the
// pinned version is reused; a failed install leaves no venv that looks finished.
//
// CLI: npx bun acceptance/python-venv.ts <pkg> <version>   (prints the venv's python; exit 1 when it cannot)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";

export interface PipPackage {
  pipPackage: string;
  /** Python minor versions the package supports, e.g. ["3.11", "3.12", "3.13"]. */
  pythons: string[];
  /** An environment variable naming the python to use instead of searching PATH. */
  pythonEnv: string;
}

/** A PyPI harness: a package whose console script is the harness's executable (Hermes Agent: `hermes`). */
export interface PipHarness extends PipPackage {
  kind: "pip";
  /** The console script the package installs into the venv's bin/. */
  executable: string;
}

const MARKER = ".session-bridge-installed";

function run(cmd: string, args: string[], timeoutMs: number): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

/** The first python on PATH (or named by `spec.pythonEnv`) whose minor version the package supports. */
export function pickPython(spec: PipPackage): string | undefined {
  const candidates = [process.env[spec.pythonEnv], ...spec.pythons.map((v) => `python${v}`), "python3"];
  for (const c of candidates) {
    if (!c) continue;
    const r = run(c, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], 30_000);
    if (r.status === 0 && spec.pythons.includes(r.out.trim())) return c;
  }
  return undefined;
}

function requirePython(spec: PipPackage): string {
  const python = pickPython(spec);
  if (python === undefined) {
    throw new Error(`${spec.pipPackage} needs Python ${spec.pythons.join(", ")} (set ${spec.pythonEnv})`);
  }
  return python;
}

/** PyPI's newest release of the package, as `pip index versions` reports it ("<name> (<version>)"). */
export function latestPipVersion(spec: PipPackage): string {
  const r = run(requirePython(spec), ["-m", "pip", "index", "versions", spec.pipPackage], 120_000);
  // The first parenthesized word, found by position: a pattern with `[^)]+` would try again from every "(".
  const open = r.out.indexOf("(");
  const close = open < 0 ? -1 : r.out.indexOf(")", open + 1);
  const version = close > open + 1 ? r.out.slice(open + 1, close) : undefined;
  if (r.status !== 0 || version === undefined) {
    throw new Error(`pip index versions ${spec.pipPackage} failed:\n${r.out.slice(-2000)}`);
  }
  return version;
}

/** The version pip recorded in the venv, or undefined. */
function installedVersion(venv: string, pkg: string): string | undefined {
  const py = venvPython(venv);
  if (!existsSync(py)) return undefined;
  const r = run(
    py,
    ["-c", `import importlib.metadata as m; print(m.version(${JSON.stringify(pkg)}))`],
    60_000,
  );
  return r.status === 0 ? r.out.trim() : undefined;
}

export function venvPython(venv: string): string {
  return join(venv, "bin", "python");
}

/**
 * Installs (or reuses) `spec.pipPackage[extras]==version` in `venv`; returns the venv's python.
 * `mustExist` names files inside the venv a finished install has (a console script), checked before the marker.
 */
export function installIntoVenv(
  venv: string,
  spec: PipPackage,
  version: string,
  { extras = [], mustExist = [] }: { extras?: string[]; mustExist?: string[] } = {},
): string {
  const finished = () => mustExist.every((f) => existsSync(join(venv, f)));
  if (finished() && existsSync(join(venv, MARKER)) && installedVersion(venv, spec.pipPackage) === version) {
    return venvPython(venv);
  }
  // A venv records its own path, so it is built in place; the marker is written only once it works.
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  const mk = run(requirePython(spec), ["-m", "venv", venv], 300_000);
  if (mk.status !== 0) throw new Error(`venv creation failed:\n${mk.out}`);
  const requirement = `${spec.pipPackage}${extras.length ? `[${extras.join(",")}]` : ""}==${version}`;
  const inst = run(join(venv, "bin", "pip"), ["install", "--quiet", requirement], 1_800_000);
  if (inst.status !== 0 || !finished()) {
    throw new Error(`pip install ${requirement} failed:\n${inst.out.slice(-4000)}`);
  }
  const got = installedVersion(venv, spec.pipPackage);
  if (got !== version) throw new Error(`installed ${spec.pipPackage} ${got ?? "?"}, wanted ${version}`);
  const marker = join(venv, MARKER);
  writeFileSync(`${marker}.tmp`, `${requirement}\n`);
  renameSync(`${marker}.tmp`, marker);
  return venvPython(venv);
}

/** Installs (or reuses) a PyPI harness in `venv`; returns its executable's path. */
export function installPip(venv: string, spec: PipHarness, version: string, extras: string[] = []): string {
  installIntoVenv(venv, spec, version, { extras, mustExist: [join("bin", spec.executable)] });
  return join(venv, "bin", spec.executable);
}

/** `${XDG_CACHE_HOME:-~/.cache}/session-bridge/venvs`: reference packages, one venv per package and version. */
export function venvCacheRoot(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache");
  return join(base, "session-bridge", "venvs");
}

export function venvDir(pkg: string, version: string): string {
  return join(venvCacheRoot(), `${pkg}-${version}`);
}

/** The Python versions reference packages are installed for; LazyBridge 1.8.3 needs >= 3.11. */
const REFERENCE_PYTHONS = ["3.11", "3.12", "3.13", "3.14"];

function referenceSpec(pkg: string): PipPackage {
  return { pipPackage: pkg, pythons: REFERENCE_PYTHONS, pythonEnv: "SESSION_BRIDGE_PYTHON" };
}

/** Whether a python the reference venvs can use is present (tests skip with a clear line when not). */
export function pythonAvailable(): boolean {
  return pickPython(referenceSpec("")) !== undefined;
}

/** Installs (or reuses) `pkg==version` in ~/.cache/session-bridge/venvs/<pkg>-<version>; returns its python. */
export function referenceVenv(pkg: string, version: string): string {
  return installIntoVenv(venvDir(pkg, version), referenceSpec(pkg), version);
}

if (import.meta.main) {
  const [pkg, version] = process.argv.slice(2);
  if (pkg === undefined || version === undefined) {
    console.error("usage: python-venv.ts <pkg> <version>");
    process.exit(2);
  }
  try {
    console.log(referenceVenv(pkg, version));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
