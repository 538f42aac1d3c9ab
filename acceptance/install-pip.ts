// The pip kind of acceptance/install-harness.ts: a PyPI package installed into a private Python venv (Hermes
// Agent: `hermes-agent`). A venv whose package already reports the pinned version is reused; a failed install
// leaves no venv that looks finished.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";

export interface PipHarness {
  kind: "pip";
  pipPackage: string;
  /** The console script the package installs into the venv's bin/. */
  executable: string;
  /** Python minor versions the package supports, e.g. ["3.11", "3.12", "3.13"]. */
  pythons: string[];
  /** An environment variable naming the python to use instead of searching PATH. */
  pythonEnv: string;
}

const MARKER = ".session-bridge-installed";

function run(cmd: string, args: string[], timeoutMs: number): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

function pickPython(spec: PipHarness): string {
  const candidates = [process.env[spec.pythonEnv], ...spec.pythons.map((v) => `python${v}`), "python3"];
  for (const c of candidates) {
    if (!c) continue;
    const r = run(c, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], 30_000);
    if (r.status === 0 && spec.pythons.includes(r.out.trim())) return c;
  }
  throw new Error(`${spec.pipPackage} needs Python ${spec.pythons.join(", ")} (set ${spec.pythonEnv})`);
}

/** PyPI's newest release of the package, as `pip index versions` reports it ("<name> (<version>)"). */
export function latestPipVersion(spec: PipHarness): string {
  const r = run(pickPython(spec), ["-m", "pip", "index", "versions", spec.pipPackage], 120_000);
  const version = /\(([^)]+)\)/.exec(r.out)?.[1];
  if (r.status !== 0 || version === undefined) {
    throw new Error(`pip index versions ${spec.pipPackage} failed:\n${r.out.slice(-2000)}`);
  }
  return version;
}

/** The version pip recorded in the venv, or undefined. */
function installedVersion(venv: string, pkg: string): string | undefined {
  const py = join(venv, "bin", "python");
  if (!existsSync(py)) return undefined;
  const r = run(
    py,
    ["-c", `import importlib.metadata as m; print(m.version(${JSON.stringify(pkg)}))`],
    60_000,
  );
  return r.status === 0 ? r.out.trim() : undefined;
}

/** Installs (or reuses) `spec.pipPackage[extras]==version` in `venv`; returns the executable's path. */
export function installPip(venv: string, spec: PipHarness, version: string, extras: string[] = []): string {
  const exe = join(venv, "bin", spec.executable);
  if (
    existsSync(exe) && existsSync(join(venv, MARKER)) && installedVersion(venv, spec.pipPackage) === version
  ) {
    return exe;
  }
  // A venv records its own path, so it is built in place; the marker is written only once it works.
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  const mk = run(pickPython(spec), ["-m", "venv", venv], 300_000);
  if (mk.status !== 0) throw new Error(`venv creation failed:\n${mk.out}`);
  const requirement = `${spec.pipPackage}${extras.length ? `[${extras.join(",")}]` : ""}==${version}`;
  const inst = run(join(venv, "bin", "pip"), ["install", "--quiet", requirement], 1_800_000);
  if (inst.status !== 0 || !existsSync(exe)) {
    throw new Error(`pip install ${requirement} failed:\n${inst.out.slice(-4000)}`);
  }
  const got = installedVersion(venv, spec.pipPackage);
  if (got !== version) throw new Error(`installed ${spec.pipPackage} ${got ?? "?"}, wanted ${version}`);
  const marker = join(venv, MARKER);
  writeFileSync(`${marker}.tmp`, `${requirement}\n`);
  renameSync(`${marker}.tmp`, marker);
  return exe;
}
