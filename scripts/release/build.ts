/**
 * Builds the release binaries: `npm run build`'s own command (package.json), once per target with
 * `--target`, into one folder with their SHA256SUMS. Bun cross-compiles, but the release workflow builds each
 * target on its own runner so every binary is run once on its own platform before it ships.
 *
 *   bun scripts/release/build.ts [--out dist/release] [--targets host|all|linux-x64,darwin-arm64,...]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { assetName, CHECKSUMS, hostTarget, platformOf, type Target, TARGETS } from "./targets.ts";
import { checksumFile } from "./checksums.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `npm run build`'s arguments after `bun`, with its output file replaced: one build command, not two. */
export function buildArgs(target: Target, outfile: string): string[] {
  const script = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: { build: string };
  }).scripts.build;
  const words = script.split(/\s+/);
  if (words[0] !== "bun" || words[1] !== "build") throw new Error(`unexpected build script: ${script}`);
  const at = words.indexOf("--outfile");
  if (at < 0) throw new Error(`the build script names no --outfile: ${script}`);
  words.splice(at, 2, "--outfile", outfile, `--target=${target.bun}`);
  return words.slice(1);
}

export function selectTargets(word: string): Target[] {
  if (word === "all") return [...TARGETS];
  if (word === "host") {
    const host = hostTarget();
    if (!host) throw new Error(`no release target for ${process.platform}-${process.arch}`);
    return [host];
  }
  return word.split(",").map((name) => {
    const found = TARGETS.find((t) => platformOf(t) === name);
    if (!found) throw new Error(`unknown target ${name} (expected ${TARGETS.map(platformOf).join(", ")})`);
    return found;
  });
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: "dist/release" },
      targets: { type: "string", default: "host" },
    },
  });
  const out = resolve(values.out!);
  mkdirSync(out, { recursive: true });
  const built: string[] = [];
  for (const target of selectTargets(values.targets!)) {
    const outfile = join(out, assetName(target));
    const r = spawnSync(process.execPath, buildArgs(target, outfile), { cwd: ROOT, stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
    built.push(outfile);
  }
  writeFileSync(join(out, CHECKSUMS), await checksumFile(built));
  console.log(`${built.length} binaries and ${CHECKSUMS} in ${out}`);
}
