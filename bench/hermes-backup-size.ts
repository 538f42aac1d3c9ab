/**
 * What a handoff into Hermes and its undo cost on disk (issue 30, item 7): `npx bun bench/hermes-backup-size.ts
 * [--mb 320] [--cycles 2]`. A Claude Code session of that size (bench/session.ts) is handed into a Hermes 0.19.0
 * home and undone, `--cycles` times, through the CLI as a user runs it; printed per operation: the store's size
 * (state.db and its -wal) and the backup bytes it took, and the wall time. Read it against the rule: after a
 * handoff and its undo the store is within a tenth of its size before, and backups hold what an operation changes.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { generateClaudeSession } from "./session.ts";
import { emptyHermesHome } from "./hermes-floor.ts";
import { scriptArgv } from "../lib/runtime.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

const { values } = parseArgs({
  options: { mb: { type: "string", default: "320" }, cycles: { type: "string", default: "2" } },
});
const root = mkdtempSync(join(tmpdir(), "sb-hermes-size-"));
const env = { ...process.env, SESSION_BRIDGE_HOME: join(root, "bridge"), SESSION_BRIDGE_DEBUG: "" };
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

function cli(args: string[]): Record<string, unknown> {
  const [bin, ...pre] = scriptArgv(MAIN);
  const started = performance.now();
  const r = spawnSync(bin!, [...pre, ...args, "--json"], { env, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return {
    ...JSON.parse(r.stdout) as Record<string, unknown>,
    seconds: (performance.now() - started) / 1000,
  };
}

try {
  const source = join(root, "long.jsonl");
  const generated = generateClaudeSession(source, Number(values.mb));
  const home = join(root, "hermes");
  const db = emptyHermesHome(home);
  const store = () => sizeOf(db) + sizeOf(`${db}-wal`);
  const backupBytes = (paths: string[]) => paths.reduce((sum, p) => sum + sizeOf(p), 0);
  const flags = ["--hermes-home", home];
  console.log(
    `session ${megabytes(generated.bytes)} (${generated.records} records); store ${megabytes(store())}`,
  );
  for (let cycle = 1; cycle <= Number(values.cycles); cycle++) {
    const before = store();
    const handed = cli(["handoff", source, "--to", "hermes", "--cwd", root, ...flags]);
    const paths = (handed.backup as { paths: string[] }).paths;
    console.log(
      `cycle ${cycle} handoff: store ${megabytes(before)} -> ${megabytes(store())}, backup ${
        backupBytes(paths)
      } bytes, ${(handed.seconds as number).toFixed(1)} s`,
    );
    const undone = cli(["undo", handed.op as string, ...flags]);
    console.log(
      `cycle ${cycle} undo: store -> ${megabytes(store())} (${
        (100 * store() / before).toFixed(1)
      } % of before), backup ${backupBytes(undone.backups as string[])} bytes, ${
        (undone.seconds as number).toFixed(1)
      } s`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
