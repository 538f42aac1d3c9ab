/**
 * Assembles the npm packages from release binaries: one `session-bridge-<os>-<cpu>` package per binary, each
 * installable only on its platform (npm's `os`/`cpu`), and the `session-bridge` package that depends on all of
 * them optionally, so npm installs the one this machine can run, and whose bin is a POSIX sh launcher
 * (launcher.sh: no Node, Bun or Deno is needed to run what npm installed).
 *
 *   bun scripts/release/npm-packages.ts [--binaries dist/release] [--out dist/npm]
 *
 * A binary missing from --binaries gets no package (a local build makes the host's alone); the main package
 * names every target, and npm skips the ones it cannot find or cannot install here.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { assetName, packageName, platformOf, TARGETS } from "./targets.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Manifest {
  version: string;
  description: string;
  repository?: { type: string; url: string };
  license?: string;
}

const manifest = (): Manifest => JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;

/** The fields every package shares with the repository's package.json. */
function common(m: Manifest) {
  return {
    version: m.version,
    ...(m.repository ? { repository: m.repository } : {}),
    ...(m.license ? { license: m.license } : {}),
    files: ["bin"],
  };
}

function writePackage(dir: string, json: object, readme: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(json, null, 2) + "\n");
  writeFileSync(join(dir, "README.md"), readme);
  // The MIT license asks for its notice in every copy: npm packs a LICENSE file whatever `files` says.
  copyFileSync(join(ROOT, "LICENSE"), join(dir, "LICENSE"));
}

/** Writes the packages under `out` from the binaries in `binaries`; returns the folders written. */
export function assemblePackages(binaries: string, out: string): string[] {
  const m = manifest();
  const written: string[] = [];
  for (const target of TARGETS) {
    const binary = join(binaries, assetName(target));
    if (!existsSync(binary)) continue;
    const dir = join(out, packageName(target));
    writePackage(dir, {
      name: packageName(target),
      description: `The session-bridge binary for ${
        platformOf(target)
      } (installed by the session-bridge package).`,
      ...common(m),
      os: [target.os],
      cpu: [target.cpu],
      // Yarn's Plug'n'Play must unpack it: a binary cannot run from inside a zip.
      preferUnplugged: true,
    }, `The session-bridge binary for ${platformOf(target)}. Install \`session-bridge\` instead.\n`);
    copyFileSync(binary, join(dir, "bin/session-bridge"));
    chmodSync(join(dir, "bin/session-bridge"), 0o755);
    written.push(dir);
  }
  const main = join(out, "session-bridge");
  writePackage(
    main,
    {
      name: "session-bridge",
      description: m.description,
      ...common(m),
      bin: { "session-bridge": "bin/session-bridge" },
      os: [...new Set(TARGETS.map((t) => t.os))],
      cpu: [...new Set(TARGETS.map((t) => t.cpu))],
      optionalDependencies: Object.fromEntries(TARGETS.map((t) => [packageName(t), m.version])),
    },
    [
      `# session-bridge\n`,
      m.description,
      "",
      "```sh",
      "npm install -g session-bridge   # or: npx session-bridge --help",
      "```",
      "",
      "This package holds a small shell launcher; the binary itself comes in the package for your platform",
      `(${TARGETS.map(packageName).join(", ")}), which npm installs as an optional dependency.`,
      "Nothing here needs Node, Bun or Deno at run time.",
      "",
    ].join("\n"),
  );
  copyFileSync(join(ROOT, "scripts/release/launcher.sh"), join(main, "bin/session-bridge"));
  chmodSync(join(main, "bin/session-bridge"), 0o755);
  written.push(main);
  return written;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      binaries: { type: "string", default: "dist/release" },
      out: { type: "string", default: "dist/npm" },
    },
  });
  for (const dir of assemblePackages(resolve(values.binaries!), resolve(values.out!))) console.log(dir);
}
