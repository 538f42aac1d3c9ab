/**
 * The release's pieces agree with each other and with the one list of targets (scripts/release/targets.ts):
 * the release binaries are built by `npm run build`'s own command with a target; the Homebrew formula made
 * from a release's SHA256SUMS downloads each platform's asset with its checksum; the workflow builds every
 * target on its own platform and publishes what the scripts make; install.sh and release-please point where
 * package.json does.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { buildArgs } from "../scripts/release/build.ts";
import { checksumFile, parseChecksums } from "../scripts/release/checksums.ts";
import { assetUrl, homepage, renderFormula } from "../scripts/release/brew-formula.ts";
import { assetName, platformOf, TARGETS } from "../scripts/release/targets.ts";
import { tempDir } from "./helpers/tmp.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const PKG = JSON.parse(read("package.json")) as { version: string; scripts: { build: string } };

test("each release binary is built by npm run build's command, with its own --target and output file", () => {
  for (const t of TARGETS) {
    const args = buildArgs(t, `/out/${assetName(t)}`);
    const expected = PKG.scripts.build.split(/\s+/).slice(1);
    expected.splice(
      expected.indexOf("--outfile"),
      2,
      "--outfile",
      `/out/${assetName(t)}`,
      `--target=${t.bun}`,
    );
    assert.deepEqual(args, expected);
  }
});

test("SHA256SUMS is sha256sum's format, and a line of another shape is an error naming file and line", async () => {
  const dir = tempDir("sb-sums-");
  writeFileSync(join(dir, "a"), "abc");
  const text = await checksumFile([join(dir, "a")]);
  // sha256("abc"), a published test vector.
  assert.equal(text, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n");
  assert.deepEqual([...parseChecksums(text, "SUMS")], [[
    "a",
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  ]]);
  assert.throws(() => parseChecksums(text + "oops\n", "SUMS"), /^Error: SUMS:2: /);
});

test("the Homebrew formula downloads each platform's asset of the version with the sha256 its release lists", () => {
  const sums = new Map(TARGETS.map((t, i) => [assetName(t), String(i).repeat(64)]));
  const formula = renderFormula(sums, "1.2.3");
  // Each os block holds an on_arm and an on_intel block with the url and sha256 of that platform.
  const blocks = [...formula.matchAll(/^ {2}(on_macos|on_linux) do\n([\s\S]*?)^ {2}end$/gm)];
  assert.deepEqual(blocks.map((b) => b[1]), ["on_macos", "on_linux"]);
  const found = blocks.flatMap(([, os, body]) =>
    [...body!.matchAll(
      /^ {4}(on_arm|on_intel) do\n {6}url "([^"]+)"\n {6}sha256 "([0-9a-f]{64})"\n {4}end$/gm,
    )]
      .map(([, cpu, url, sha]) => ({ os, cpu, url, sha }))
  );
  assert.deepEqual(
    found.sort((a, b) => a.url!.localeCompare(b.url!)),
    TARGETS.map((t) => ({
      os: t.os === "darwin" ? "on_macos" : "on_linux",
      cpu: t.cpu === "arm64" ? "on_arm" : "on_intel",
      url: `https://github.com/session-bridge/session-bridge/releases/download/v1.2.3/session-bridge-${
        platformOf(t)
      }`,
      sha: sums.get(assetName(t)),
    })).sort((a, b) => a.url.localeCompare(b.url)),
  );
  assert.match(formula, /^class SessionBridge < Formula$/m);
  assert.match(formula, /^ {2}version "1\.2\.3"$/m);
  assert.match(formula, /^ {4}bin\.install Dir\["session-bridge-\*"\]\.first => "session-bridge"$/m);
  assert.match(formula, /generate_completions_from_executable\(bin\/"session-bridge", "completion"\)/);
  const ruby = spawnSync("ruby", ["-c", "-e", formula.replace(/< Formula$/m, "")], { encoding: "utf8" });
  if (!ruby.error) assert.equal(ruby.status, 0, ruby.stderr);
});

test("a release missing a platform's checksum renders no formula", () => {
  const sums = new Map(TARGETS.slice(1).map((t) => [assetName(t), "0".repeat(64)]));
  assert.throws(
    () => renderFormula(sums, "1.2.3"),
    new RegExp(`SHA256SUMS lists no ${assetName(TARGETS[0]!)}`),
  );
});

interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, {
    needs?: string | string[];
    "runs-on": string;
    strategy?: { matrix: { include: { target: string; runner: string }[] } };
    steps: { run?: string; uses?: string; with?: Record<string, string> }[];
  }>;
}

test("the release workflow builds every target on its own runner and publishes what the release scripts make", () => {
  const wf = parseYaml(read(".github/workflows/release.yml")) as Workflow;
  const matrix = wf.jobs.build!.strategy!.matrix.include;
  assert.deepEqual(matrix.map((m) => m.target).sort(), TARGETS.map(platformOf).sort());
  assert.equal(new Set(matrix.map((m) => m.runner)).size, TARGETS.length, "one runner per platform");
  const runs = (job: string) => wf.jobs[job]!.steps.map((s) => s.run ?? "").join("\n");
  assert.match(runs("build"), /scripts\/release\/build\.ts --targets \$\{\{ matrix\.target \}\}/);
  assert.match(runs("build"), /PATH=\/nonexistent "\$bin" --version/);
  const publish = runs("publish");
  for (const script of ["checksums.ts", "brew-formula.ts", "npm-packages.ts"]) {
    assert.match(publish, new RegExp(`scripts/release/${script.replace(".", "\\.")}`));
  }
  assert.match(publish, /npm publish --provenance --access public/);
  // Homebrew installs only from a tap: the formula the release makes goes to the tap's Formula folder.
  assert.match(publish, /brew-formula\.ts [^\n]*> dist\/release\/session-bridge\.rb/);
  assert.match(publish, /cp dist\/release\/session-bridge\.rb tap\/Formula\/session-bridge\.rb/);
  assert.match(publish, /session-bridge\/homebrew-tap\.git/);
  assert.match(publish, /bash \.ci\/npm-install\.sh/);
  // The platform packages go first: the main package's optional dependencies must exist when it is installed.
  assert.ok(publish.indexOf("session-bridge-*/") < publish.indexOf("publish dist/npm/session-bridge\n"));
  assert.equal(wf.permissions["id-token"], "write");
  const releasePlease = wf.jobs["release-please"]!.steps[0]!;
  assert.match(releasePlease.uses!, /^googleapis\/release-please-action@v4$/);
  const config = JSON.parse(read(releasePlease.with!["config-file"]!)) as {
    packages: Record<string, { "release-type": string; "include-component-in-tag": boolean }>;
  };
  assert.equal(config.packages["."]!["release-type"], "node");
  assert.equal(
    config.packages["."]!["include-component-in-tag"],
    false,
    "tags are vX.Y.Z, as install.sh asks",
  );
  const manifest = JSON.parse(read(releasePlease.with!["manifest-file"]!)) as Record<string, string>;
  assert.equal(manifest["."], PKG.version);
});

test("install.sh, the formula and the README download from the repository package.json names", () => {
  const home = homepage();
  assert.match(home, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  assert.ok(read("install.sh").includes(`releases=\${SESSION_BRIDGE_RELEASES:-${home}/releases}`));
  assert.equal(assetUrl("1.0.0", "x"), `${home}/releases/download/v1.0.0/x`);
  const raw = home.replace("https://github.com/", "https://raw.githubusercontent.com/");
  assert.ok(read("install.sh").includes(`curl -fsSL ${raw}/main/install.sh | sh`));
});
