/**
 * The npm channel's packages, assembled from stand-in binaries (a shell script that says which platform
 * package it came from): each platform package installs only on its platform, the main package depends on
 * every one optionally at its own version, and its sh launcher finds the binary in every layout npm makes
 * (a global install nests it, a local install and npx put it beside) and runs it in its place with no runtime on
 * PATH. The real binary, packed and installed offline from the tarballs, is .ci/npm-install.sh (in .ci/run).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assemblePackages } from "../scripts/release/npm-packages.ts";
import { assetName, hostTarget, packageName, platformOf, TARGETS } from "../scripts/release/targets.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
}).version;

function assembled(): string {
  const work = tempDir("sb-npm-");
  mkdirSync(join(work, "binaries"));
  for (const t of TARGETS) {
    const path = join(work, "binaries", assetName(t));
    writeFileSync(path, `#!/bin/sh\necho "${platformOf(t)} binary: $*"\nexit 3\n`);
    chmodSync(path, 0o755);
  }
  assemblePackages(join(work, "binaries"), join(work, "packages"));
  return work;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

test("each platform package carries its binary, executable, and installs only on its own os and cpu", () => {
  const packages = join(assembled(), "packages");
  for (const t of TARGETS) {
    const dir = join(packages, packageName(t));
    const json = readJson(join(dir, "package.json"));
    assert.equal(json.name, packageName(t));
    assert.equal(json.version, VERSION);
    assert.deepEqual(json.os, [t.os]);
    assert.deepEqual(json.cpu, [t.cpu]);
    assert.equal(json.bin, undefined, "a platform package links no bin of its own");
    assert.equal(statSync(join(dir, "bin/session-bridge")).mode & 0o111, 0o111);
  }
});

test("the main package depends on every platform package optionally, at its own version, and asks for no runtime", () => {
  const json = readJson(join(assembled(), "packages/session-bridge/package.json"));
  assert.deepEqual(
    json.optionalDependencies,
    Object.fromEntries(TARGETS.map((t) => [packageName(t), VERSION])),
  );
  assert.deepEqual(json.bin, { "session-bridge": "bin/session-bridge" });
  assert.equal(json.engines, undefined);
  assert.equal(json.dependencies, undefined);
  assert.equal(json.scripts, undefined, "no install script: nothing runs Node at install time either");
});

test("every package carries the repository's MIT license, named in its package.json and its LICENSE file", () => {
  const packages = join(assembled(), "packages");
  const license = readFileSync(new URL("../LICENSE", import.meta.url), "utf8");
  assert.match(license, /^MIT License\n/);
  for (const name of ["session-bridge", ...TARGETS.map(packageName)]) {
    assert.equal(readJson(join(packages, name, "package.json")).license, "MIT", name);
    assert.equal(readFileSync(join(packages, name, "LICENSE"), "utf8"), license, name);
  }
});

test("npm pack in the repository is refused, naming the script that builds the real packages", () => {
  const root = new URL("..", import.meta.url).pathname;
  const run = spawnSync("npm", ["pack", "--dry-run", "--ignore-scripts=false"], {
    cwd: root,
    encoding: "utf8",
  });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /scripts\/release\/npm-packages\.ts/);
});

/** A PATH holding only the tools the launcher may use. */
function toolsPath(work: string): string {
  const tools = join(work, "tools");
  mkdirSync(tools);
  for (const tool of ["sh", "readlink", "uname"]) {
    const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
    symlinkSync(found, join(tools, tool));
  }
  return tools;
}

const host = hostTarget();

test(
  "the launcher runs this platform's binary in its place, nested (global) or beside (local, npx), with no runtime on PATH",
  {
    skip: host ? false : `no release target for ${process.platform}-${process.arch}`,
  },
  () => {
    const work = assembled();
    const tools = toolsPath(work);
    const main = join(work, "packages/session-bridge");
    const platform = join(work, "packages", packageName(host!));
    // Global: <prefix>/bin/session-bridge -> ../lib/node_modules/session-bridge/bin/session-bridge, the platform
    // package under the main one. Local: node_modules/.bin/session-bridge -> ../session-bridge/bin/..., beside it.
    const global = join(work, "global");
    cpSync(main, join(global, "lib/node_modules/session-bridge"), { recursive: true });
    cpSync(platform, join(global, "lib/node_modules/session-bridge/node_modules", packageName(host!)), {
      recursive: true,
    });
    mkdirSync(join(global, "bin"));
    symlinkSync("../lib/node_modules/session-bridge/bin/session-bridge", join(global, "bin/session-bridge"));
    const local = join(work, "local/node_modules");
    cpSync(main, join(local, "session-bridge"), { recursive: true });
    cpSync(platform, join(local, packageName(host!)), { recursive: true });
    mkdirSync(join(local, ".bin"));
    symlinkSync("../session-bridge/bin/session-bridge", join(local, ".bin/session-bridge"));

    for (const bin of [join(global, "bin"), join(local, ".bin")]) {
      const r = spawnSync("session-bridge", ["--version", "a b"], {
        encoding: "utf8",
        env: { PATH: `${bin}:${tools}`, HOME: work },
      });
      assert.equal(r.stderr, "");
      assert.equal(r.stdout, `${platformOf(host!)} binary: --version a b\n`, bin);
      assert.equal(r.status, 3, "the binary's exit code is the launcher's");
    }
  },
);

test("without its platform package the launcher says which package npm did not install, exit 1", {
  skip: host ? false : `no release target for ${process.platform}-${process.arch}`,
}, () => {
  const work = assembled();
  const tools = toolsPath(work);
  // Alone: in packages/ the platform packages sit beside it, as in a local install.
  cpSync(join(work, "packages/session-bridge"), join(work, "alone/session-bridge"), { recursive: true });
  const r = spawnSync(join(work, "alone/session-bridge/bin/session-bridge"), ["--version"], {
    encoding: "utf8",
    env: { PATH: tools, HOME: work },
  });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  assert.match(
    r.stderr,
    new RegExp(`^session-bridge: no binary for ${platformOf(host!)}: .*session-bridge-${platformOf(host!)}`),
  );
  assert.equal(r.stderr.trim().split("\n").length, 1);
});
