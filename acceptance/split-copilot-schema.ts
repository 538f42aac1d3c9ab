// Writes schemas/copilot-cli/<version>/<event type>.schema.json from the schema of session events that GitHub
// Copilot CLI ships: `schemas/session-events.schema.json` of the JS package its native binary unpacks into
// $XDG_CACHE_HOME/copilot/pkg/<platform>/<version>/ on start (the npm package itself holds no schema since the
// binary took over). That schema is one `SessionEvent` (anyOf, one branch per event type, each a definition
// whose `type` is a const); drift reports by record type, so each branch becomes a file of its own holding the
// definitions it reaches, the rest of the shipped schema unchanged.
//
//   npx bun acceptance/split-copilot-schema.ts [version]
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { harnessCacheRoot, installHarness, pinnedVersion, platformKeys } from "./install-harness.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

type Schema = { [k: string]: unknown };

/** The package cache the capture script gives the binary too (acceptance/capture-copilot-fixtures.ts). */
const PACKAGE_CACHE = join(harnessCacheRoot(), "copilot-cli-xdg-cache");

/** The unpacked package of `version`, unpacking it first (any start of the binary does; `--version` is quick). */
function packageDir(bin: string, version: string): string {
  const find = () =>
    platformKeys().map((key) => join(PACKAGE_CACHE, "copilot", "pkg", key, version)).find((dir) =>
      existsSync(dir)
    );
  if (find() === undefined) {
    spawnSync(bin, ["--version"], {
      env: { ...process.env, XDG_CACHE_HOME: PACKAGE_CACHE },
      timeout: 120_000,
    });
  }
  const dir = find();
  if (dir === undefined) throw new Error(`${bin} unpacked no package into ${PACKAGE_CACHE}/copilot/pkg`);
  return dir;
}

/** The names of the definitions `root` reaches through `#/definitions/<name>` references, each once. */
function reachable(root: unknown, definitions: Record<string, unknown>): string[] {
  const seen = new Set<string>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string" && value.startsWith("#/definitions/")) {
          const name = value.slice("#/definitions/".length);
          if (!seen.has(name)) {
            seen.add(name);
            stack.push(definitions[name]);
          }
        } else stack.push(value);
      }
    }
  }
  return [...seen].sort();
}

/** One schema per event type, by type. */
export function splitByEventType(shipped: Schema): Map<string, Schema> {
  const definitions = shipped.definitions as Record<string, Schema>;
  const branches = (definitions.SessionEvent as { anyOf: { $ref: string }[] }).anyOf;
  const out = new Map<string, Schema>();
  for (const { $ref } of branches) {
    const name = $ref.slice("#/definitions/".length);
    const event = definitions[name] as Schema;
    const type = ((event.properties as Schema).type as { const: string }).const;
    const own = Object.fromEntries(reachable(event, definitions).map((n) => [n, definitions[n]]));
    out.set(type, { $schema: shipped.$schema, ...event, title: name, definitions: own });
  }
  return out;
}

async function main(argv: string[]) {
  const version = argv[0] ?? pinnedVersion("copilot-cli");
  const bin = await installHarness("copilot-cli", version);
  const shippedPath = join(packageDir(bin, version), "schemas", "session-events.schema.json");
  const byType = splitByEventType(JSON.parse(readFileSync(shippedPath, "utf8")) as Schema);
  const outDir = join(REPO, "schemas", "copilot-cli", version);
  if (existsSync(outDir)) { for (const f of readdirSync(outDir)) rmSync(join(outDir, f)); }
  mkdirSync(outDir, { recursive: true });
  for (const [type, schema] of byType) {
    writeFileSync(join(outDir, `${type}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`);
  }
  console.log(`${byType.size} event types from ${shippedPath} into ${outDir}`);
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
