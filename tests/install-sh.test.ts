/**
 * install.sh against a fake release served on 127.0.0.1: it fetches the binary for the machine `uname` says it
 * is (faked per test, so every release target is tried) with the release's SHA256SUMS, installs it executable,
 * and refuses, installing nothing, when the checksum does not match.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checksumFile } from "../scripts/release/checksums.ts";
import { assetName, CHECKSUMS, platformOf, type Target, TARGETS } from "../scripts/release/targets.ts";
import { tempDir } from "./helpers/tmp.ts";

const INSTALL_SH = fileURLToPath(new URL("../install.sh", import.meta.url));

/** `uname -s` and `uname -m` as each target's machine answers them. */
const UNAME: Record<string, [string, string]> = {
  "linux-x64": ["Linux", "x86_64"],
  "linux-arm64": ["Linux", "aarch64"],
  "darwin-x64": ["Darwin", "x86_64"],
  "darwin-arm64": ["Darwin", "arm64"],
};

/** A release folder: a stand-in binary per target that prints its platform, and their SHA256SUMS. */
async function fakeRelease(dir: string, version: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const paths = TARGETS.map((t) => {
    const path = join(dir, assetName(t));
    writeFileSync(path, `#!/bin/sh\necho "session-bridge ${version} (${platformOf(t)})"\n`);
    return path;
  });
  writeFileSync(join(dir, CHECKSUMS), await checksumFile(paths));
}

/** Serves `root` on 127.0.0.1 as GitHub serves releases (`latest/download/X`, `download/vN/X`); logs requests. */
async function serve(root: string): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url!);
    const m = /^\/(latest\/download|download\/v[\w.-]+)\/([\w.-]+)$/.exec(req.url!);
    const path = m && join(root, m[1]!.replace("/download", "").replace("download/", ""), m[2]!);
    if (!path || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  test.after(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A PATH with the tools install.sh uses, and a `uname` that answers as `target`'s machine would. */
function machine(work: string, target: Target): string {
  const bin = join(work, "bin");
  mkdirSync(bin);
  for (const tool of ["sh", "curl", "sha256sum", "awk", "cut", "mktemp", "mkdir", "chmod", "mv", "rm"]) {
    const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
    assert.ok(found, `${tool} is not installed`);
    symlinkSync(found, join(bin, tool));
  }
  const [s, m] = UNAME[platformOf(target)]!;
  writeFileSync(join(bin, "uname"), `#!/bin/sh\ncase $1 in -s) echo ${s} ;; -m) echo ${m} ;; esac\n`);
  chmodSync(join(bin, "uname"), 0o755);
  return bin;
}

function install(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const child = spawn("sh", [INSTALL_SH], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => stderr += d.toString());
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, stderr })));
}

const curlPresent = spawnSync("sh", ["-c", "command -v curl && command -v sha256sum"]).status === 0;
const skip = curlPresent ? false : "curl or sha256sum is not installed";

test("install.sh installs the latest release's binary for each machine, checksum verified, and says so", {
  skip,
}, async () => {
  const root = tempDir("sb-install-");
  await fakeRelease(join(root, "releases/latest"), "0.9.0");
  const server = await serve(join(root, "releases"));
  for (const target of TARGETS) {
    const work = join(root, platformOf(target));
    mkdirSync(work);
    const into = join(work, "installed");
    const r = await install({
      HOME: work,
      PATH: machine(work, target),
      SESSION_BRIDGE_RELEASES: server.url,
      SESSION_BRIDGE_INSTALL_DIR: into,
    });
    assert.equal(r.code, 0, r.stderr);
    const binary = join(into, "session-bridge");
    assert.equal(
      readFileSync(binary, "utf8"),
      readFileSync(join(root, "releases/latest", assetName(target)), "utf8"),
    );
    assert.deepEqual(readdirSync(into), ["session-bridge"], "no temp file is left");
    assert.match(
      r.stderr,
      new RegExp(`installed session-bridge 0\\.9\\.0 \\(${platformOf(target)}\\) in ${binary}`),
    );
    assert.match(r.stderr, /is not on your PATH: add {2}export PATH=/);
  }
  assert.deepEqual(
    new Set(server.requests),
    new Set([`/latest/download/${CHECKSUMS}`, ...TARGETS.map((t) => `/latest/download/${assetName(t)}`)]),
  );
});

test("install.sh fetches the version asked for", { skip }, async () => {
  const root = tempDir("sb-install-");
  await fakeRelease(join(root, "releases/v0.8.1"), "0.8.1");
  const server = await serve(join(root, "releases"));
  const target = TARGETS[0]!;
  const r = await install({
    HOME: root,
    PATH: machine(root, target),
    SESSION_BRIDGE_RELEASES: server.url,
    SESSION_BRIDGE_INSTALL_DIR: join(root, "installed"),
    SESSION_BRIDGE_VERSION: "0.8.1",
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(server.requests, [
    `/download/v0.8.1/${CHECKSUMS}`,
    `/download/v0.8.1/${assetName(target)}`,
  ]);
});

test(
  "install.sh refuses a binary whose checksum differs from SHA256SUMS and installs nothing",
  { skip },
  async () => {
    const root = tempDir("sb-install-");
    const release = join(root, "releases/latest");
    await fakeRelease(release, "0.9.0");
    const target = TARGETS[0]!;
    writeFileSync(join(release, assetName(target)), "#!/bin/sh\necho tampered\n");
    const server = await serve(join(root, "releases"));
    const into = join(root, "installed");
    const r = await install({
      HOME: root,
      PATH: machine(root, target),
      SESSION_BRIDGE_RELEASES: server.url,
      SESSION_BRIDGE_INSTALL_DIR: into,
    });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(`^install\\.sh: checksum mismatch for ${assetName(target)}: got [0-9a-f]{64}, `, "m"),
    );
    assert.deepEqual(readdirSync(into), [], "nothing installed, no temp file left");
  },
);

test("install.sh refuses a machine no release is built for, naming it", { skip }, async () => {
  const root = tempDir("sb-install-");
  const bin = machine(root, TARGETS[0]!);
  writeFileSync(join(bin, "uname"), `#!/bin/sh\ncase $1 in -s) echo Linux ;; -m) echo riscv64 ;; esac\n`);
  const r = await install({ HOME: root, PATH: bin, SESSION_BRIDGE_RELEASES: "http://127.0.0.1:9" });
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "install.sh: no session-bridge release for riscv64 (x64 and arm64 only)\n");
});
