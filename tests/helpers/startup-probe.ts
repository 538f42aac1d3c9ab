/**
 * Run in a fresh process by tests/startup.test.ts: `--version` and `--help` through the real CLI, then every
 * command module loaded (as running any command would), then two records of one type checked; prints how many
 * versions' schema validators were made after each stage.
 */
import { run } from "../../lib/cli/main.ts";
import { COMMANDS } from "../../lib/cli/commands/index.ts";

const codes = [await run(["--version"], {}), await run(["--help"], {})];
for (const entry of COMMANDS) await entry.load();
const { madeValidatorSets, DriftCollector } = await import("../../lib/schemas/drift.ts");
const { VALIDATORS } = await import("../../lib/generated/validators/codex.ts");
const atStartup = madeValidatorSets();
const drift = new DriftCollector("codex", VALIDATORS);
drift.check("0.169.0", "compacted", { type: "compacted" }, 1);
drift.check("0.169.0", "compacted", { type: "compacted" }, 2);
console.log(JSON.stringify({ codes, atStartup, afterOneRecordType: madeValidatorSets() }));
