// Installs a pinned Hermes Agent (PyPI `hermes-agent`) into a private Python venv outside the repo:
//   ${XDG_CACHE_HOME:-~/.cache}/session-bridge/harnesses/hermes-<version>
// A venv whose `hermes` already reports the right version is reused.
//
// CLI: npx bun acceptance/install-hermes.ts [--extras messaging] [version ...]   (prints the executable path)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";

export const HERMES_DEFAULT_VERSION = "0.19.0";

export function hermesCacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME && process.env.XDG_CACHE_HOME !== ""
    ? process.env.XDG_CACHE_HOME
    : join(homedir(), ".cache");
  return join(base, "session-bridge", "harnesses");
}

/** `extras` (pip extras such as "messaging") get their own venv: `hermes-<version>-<extra>[-<extra>...]`. */
export function hermesVenvDir(version: string, extras: string[] = []): string {
  const suffix = extras.length > 0 ? `-${[...extras].sort().join("-")}` : "";
  return join(hermesCacheRoot(), `hermes-${version}${suffix}`);
}

function run(cmd: string, args: string[], timeoutMs: number): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

function pickPython(): string {
  const candidates = [process.env.HERMES_PYTHON, "python3.11", "python3.12", "python3.13", "python3"];
  for (const c of candidates) {
    if (!c) continue;
    const r = run(c, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], 30_000);
    if (r.status !== 0) continue;
    const [maj, min] = r.out.trim().split(".").map(Number);
    if (maj === 3 && min !== undefined && min >= 11 && min <= 13) return c;
  }
  throw new Error("hermes-agent needs Python 3.11..3.13 (set HERMES_PYTHON)");
}

/** Version recorded by pip in the venv, or undefined. */
function installedVersion(venv: string): string | undefined {
  const py = join(venv, "bin", "python");
  if (!existsSync(py)) return undefined;
  const r = run(py, ["-c", "import importlib.metadata as m; print(m.version('hermes-agent'))"], 60_000);
  return r.status === 0 ? r.out.trim() : undefined;
}

export interface InstallHermesOptions {
  /** pip extras, e.g. ["messaging"] for the gateway platforms (aiohttp). */
  extras?: string[];
}

export function installHermes(
  version: string = HERMES_DEFAULT_VERSION,
  opts: InstallHermesOptions = {},
): Promise<string> {
  const extras = opts.extras ?? [];
  const venv = hermesVenvDir(version, extras);
  const exe = join(venv, "bin", "hermes");
  const marker = join(venv, ".session-bridge-installed");
  if (existsSync(exe) && existsSync(marker) && installedVersion(venv) === version) {
    return Promise.resolve(exe);
  }
  mkdirSync(hermesCacheRoot(), { recursive: true });
  if (existsSync(venv)) rmSync(venv, { recursive: true, force: true });
  const py = pickPython();
  const mk = run(py, ["-m", "venv", venv], 300_000);
  if (mk.status !== 0) throw new Error(`venv creation failed:\n${mk.out}`);
  const pip = join(venv, "bin", "pip");
  const spec = `hermes-agent${extras.length > 0 ? `[${extras.join(",")}]` : ""}==${version}`;
  const inst = run(pip, ["install", "--quiet", spec], 1_800_000);
  if (inst.status !== 0 || !existsSync(exe)) {
    throw new Error(`pip install ${spec} failed:\n${inst.out.slice(-4000)}`);
  }
  const got = installedVersion(venv);
  if (got !== version) throw new Error(`installed hermes-agent ${got ?? "?"}, wanted ${version}`);
  writeFileSync(marker, `${spec}\n`);
  return Promise.resolve(exe);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const extras: string[] = [];
  const versions: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--extras") extras.push(...(args[++i] ?? "").split(",").filter((x) => x !== ""));
    else versions.push(a);
  }
  for (const v of versions.length > 0 ? versions : [HERMES_DEFAULT_VERSION]) {
    console.log(await installHermes(v, { extras }));
  }
}
