// Installs a pinned Codex CLI (npm `@openai/codex`) outside the repo:
//   ${XDG_CACHE_HOME:-~/.cache}/session-bridge/harnesses/codex-<version>
// and returns the path of the native binary inside the optional dependency `@openai/codex-linux-x64`
// (the JS shim in `@openai/codex/bin` only execs it). An install whose binary reports the version is reused.
// npm may skip install scripts here; none are needed: the platform package carries the binary itself.
//
// CLI: npx bun acceptance/install-codex.ts [version ...]   (prints the native binary path per version)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";

export const CODEX_DEFAULT_VERSION = "0.169.0";

export function codexCacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME && process.env.XDG_CACHE_HOME !== ""
    ? process.env.XDG_CACHE_HOME
    : join(homedir(), ".cache");
  return join(base, "session-bridge", "harnesses");
}

export function codexInstallDir(version: string): string {
  return join(codexCacheRoot(), `codex-${version}`);
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

function platformPackage(): string {
  const os = process.platform === "win32" ? "win32" : process.platform === "darwin" ? "darwin" : "linux";
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  return `@openai/codex-${os}-${arch}`;
}

/** Finds the native `codex` executable under the platform package (layout differs between releases). */
function findNativeBinary(pkgDir: string): string | undefined {
  const vendor = join(pkgDir, "vendor");
  if (!existsSync(vendor)) return undefined;
  const name = process.platform === "win32" ? "codex.exe" : "codex";
  const stack: Array<{ dir: string; depth: number }> = [{ dir: vendor, depth: 0 }];
  const found: string[] = [];
  while (stack.length > 0) {
    const top = stack.pop();
    if (!top || top.depth > 5) continue;
    for (const entry of readdirSync(top.dir, { withFileTypes: true })) {
      const p = join(top.dir, entry.name);
      if (entry.isDirectory()) stack.push({ dir: p, depth: top.depth + 1 });
      else if (entry.isFile() && entry.name === name && statSync(p).size > 1_000_000) found.push(p);
    }
  }
  found.sort((a, b) => a.length - b.length);
  return found[0];
}

function binaryVersion(bin: string): string | undefined {
  const r = run(bin, ["--version"], "/", 60_000);
  const m = /codex-cli\s+(\S+)/.exec(r.out);
  return r.status === 0 && m ? m[1] : undefined;
}

export function installCodex(version: string = CODEX_DEFAULT_VERSION): Promise<string> {
  const dir = codexInstallDir(version);
  const pkgDir = join(dir, "node_modules", ...platformPackage().split("/"));
  const marker = join(dir, ".session-bridge-installed");
  if (existsSync(marker)) {
    const bin = findNativeBinary(pkgDir);
    if (bin && binaryVersion(bin) === version) return Promise.resolve(bin);
  }
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, name: "codex-harness" })}\n`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const inst = run(
    npm,
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--ignore-scripts",
      `@openai/codex@${version}`,
    ],
    dir,
    1_800_000,
  );
  if (inst.status !== 0) {
    throw new Error(`npm install @openai/codex@${version} failed:\n${inst.out.slice(-4000)}`);
  }
  let bin = findNativeBinary(pkgDir);
  if (!bin) {
    // Older npm/optional-dependency quirks: fetch the platform build explicitly under its alias.
    const alias = `${platformPackage()}@npm:@openai/codex@${version}-${
      platformPackage().split("-").slice(1).join("-")
    }`;
    const again = run(
      npm,
      ["install", "--no-audit", "--no-fund", "--no-package-lock", "--ignore-scripts", alias],
      dir,
      1_800_000,
    );
    if (again.status !== 0) throw new Error(`npm install ${alias} failed:\n${again.out.slice(-4000)}`);
    bin = findNativeBinary(pkgDir);
  }
  if (!bin) throw new Error(`no native codex binary under ${pkgDir}`);
  const got = binaryVersion(bin);
  if (got !== version) throw new Error(`installed codex ${got ?? "?"}, wanted ${version}`);
  writeFileSync(marker, `${version}\n`);
  return Promise.resolve(bin);
}

if (import.meta.main) {
  const versions = process.argv.slice(2);
  for (const v of versions.length > 0 ? versions : [CODEX_DEFAULT_VERSION]) {
    console.log(await installCodex(v));
  }
}
