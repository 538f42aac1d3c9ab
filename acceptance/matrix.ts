/**
 * The live acceptance matrix from the repository: installs the harness versions under test (the pins in
 * harness-versions.json, `--latest`, `--older` (harness-versions-older.json), or `--versions H=V,...`, which
 * names a harness's version over the others) into the cache and runs
 * `certify` (lib/certify) with exactly those binaries. A passing run of every pair is recorded in
 * acceptance/last-run.json and the README's supported-versions table (unless --no-record); one with
 * `--touching H,...` certifies those harnesses' versions only.
 *
 * Usage: npx bun acceptance/matrix.ts [--versions H=V,...] [--latest | --older] [--binary dist/session-bridge]
 *          [--structure-only | --real] [--styles S,...] [--pairs A:B[:C],...] [--no-hops] [--touching H,...]
 *          [--share K/N] [--allow-drift] [--json] [--no-record] [--print-versions]
 * `--print-versions` prints `<harness> <version>` for each harness the run would install (asking the registries
 * with --latest) and stops: nothing installed, nothing run. `--share K/N` runs share K of N of the routes (the TUI
 * styles seeded in every Nth harness from K, every Nth exec route from K): CI takes the shares in turn, one a day.
 */
import { realpathSync } from "node:fs";
import { flag, parse, str } from "../lib/cli/args.ts";
import { PROCESS_OUTPUT } from "../lib/cli/output.ts";
import {
  certifiable,
  CERTIFY_OPTIONS,
  certifyMode,
  certifyRoutes,
  routesInShare,
  touchedHarnesses,
} from "../lib/cli/certify-options.ts";
import { reportTable } from "../lib/certify/report.ts";
import { certify } from "../lib/certify/run.ts";
import type { HarnessBinary } from "../lib/certify/types.ts";
import { builtinRegistry, findHarness } from "../lib/harnesses/registry.ts";
import { installHarness, latestVersion, olderVersions, pinnedVersion } from "./install-harness.ts";
import { recordRun, updateReadme } from "./supported-versions.ts";

/** This script is an entry point: it prints to this process's stdout and stderr. */
const { err, out, printJson } = PROCESS_OUTPUT;

const OPTIONS = {
  ...CERTIFY_OPTIONS,
  versions: { type: "string" },
  latest: { type: "boolean" },
  older: { type: "boolean" },
  "print-versions": { type: "boolean" },
  binary: { type: "string" },
  "no-record": { type: "boolean" },
  share: { type: "string" },
} as const;

/** `claude-code=1.0.128,codex=0.147.0` as harness → version. */
function versionOverrides(text: string | undefined): Record<string, string> {
  if (!text) return {};
  return Object.fromEntries(
    text.split(",").map((entry) => {
      const [name, version] = entry.split("=");
      if (!name || !version) {
        throw new Error(`--versions: expected HARNESS=VERSION, got ${JSON.stringify(entry)}`);
      }
      return [findHarness(builtinRegistry, name).name, version];
    }),
  );
}

async function main(argv: string[]): Promise<number> {
  const { values } = await parse(argv, OPTIONS, builtinRegistry);
  const mode = certifyMode(values);
  if (flag(values, "latest") && flag(values, "older")) {
    throw new Error("--latest and --older exclude each other");
  }
  const overrides = {
    ...(flag(values, "older") ? olderVersions() : {}),
    ...versionOverrides(str(values, "versions")),
  };
  const versionOf = (id: string) =>
    overrides[id] ?? (flag(values, "latest") ? latestVersion(id) : pinnedVersion(id));
  if (flag(values, "print-versions")) {
    for (const { name: id } of certifiable(builtinRegistry)) out(`${id} ${versionOf(id)}`);
    return 0;
  }
  const binaries: HarnessBinary[] = [];
  for (const { name: id } of certifiable(builtinRegistry)) {
    const version = versionOf(id);
    err(`installing ${id} ${version} ...`);
    binaries.push({ id, version, bin: await installHarness(id, version) });
  }
  const binary = str(values, "binary");
  let routes = certifyRoutes(values, mode, builtinRegistry);
  const share = str(values, "share");
  if (share !== undefined) {
    const [k, n] = share.split("/").map(Number);
    routes = routesInShare(routes, binaries.map((b) => b.id), k ?? NaN, n ?? NaN);
    err(
      `share ${share}: TUI sessions seeded in ${
        binaries.filter((_, i) => i % n! === k).map((b) => b.id).join(", ")
      }; exec routes ${k} + ${n}i in plan order`,
    );
  }
  const report = await certify({
    registry: builtinRegistry,
    mode,
    routes,
    binaries,
    missing: {},
    // The matrix itself runs from source; with --binary the build under test is that compiled binary, so its
    // handoffs go through the binary's own CLI. Without it, they run in this process (certify's default).
    ...(binary ? { bridge: [realpathSync(binary)] } : {}),
    allowDrift: flag(values, "allow-drift"),
    env: process.env,
    progress: err,
  });
  if (flag(values, "json")) {
    printJson({ mode, harnesses: binaries, results: report.results, seconds: report.seconds }, report.ok);
  } else for (const line of reportTable(report)) out(line);
  // Only a run of every route, with no drift excused, certifies the versions it ran: the whole plan, or with
  // --touching every route of those harnesses, which certifies theirs alone.
  const whole = ["pairs", "styles", "share"].every((name) => str(values, name) === undefined) &&
    !flag(values, "no-hops") && !flag(values, "allow-drift");
  if (report.ok && whole && !flag(values, "no-record")) {
    recordRun(report, new Date(), undefined, touchedHarnesses(values, builtinRegistry));
    if (updateReadme()) err("README.md: supported versions updated");
  }
  return report.ok ? 0 : 1;
}

if (import.meta.main) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code), (error: unknown) => {
    err(`matrix: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  });
}
