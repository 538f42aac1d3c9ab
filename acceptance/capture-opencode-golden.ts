// Captures the rows the REAL OpenCode writes for small conversations, for the writer's goldens
// (tests/opencode-golden.test.ts): offline against the kit's fake Chat Completions server
// (acceptance/opencode-offline.ts).
//
//   npx bun acceptance/capture-opencode-golden.ts [version]
//
// Writes fixtures/opencode/<version>/writer-golden/<scenario>.rows.json: {cwd, session, messages, parts}, the
// session's rows as `SELECT *` gives them (message and part `data` parsed), messages by (time_created, id) and
// parts by (message id, id) as OpenCode orders them, the private root's path replaced by /home/user.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { offlineOpenCode } from "./opencode-offline.ts";
import { pinnedVersion } from "./install-harness.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const version = process.argv[2] ?? pinnedVersion("opencode");

/** Each scenario: the `opencode run` prompts, the second and later continuing the first's session. */
const SCENARIOS: Record<string, string[][]> = {
  // The fake model answers `TOOL: <command>` with reasoning and a bash call, then says what the tool said.
  "tool-call": [["TOOL:", "echo", "golden-mark"]],
  "two-prompts": [["first", "prompt"], ["second", "prompt"]],
};

type Row = Record<string, unknown>;

interface Dump {
  session: Row;
  messages: Row[];
  parts: Row[];
}

function dump(database: string): Dump {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    const session = db.prepare("SELECT * FROM session").get() as Row;
    const parsed = (rows: Row[]) => rows.map((r) => ({ ...r, data: JSON.parse(String(r.data)) }));
    return {
      session,
      messages: parsed(db.prepare("SELECT * FROM message ORDER BY time_created, id").all() as Row[]),
      parts: parsed(db.prepare("SELECT * FROM part ORDER BY message_id, id").all() as Row[]),
    };
  } finally {
    db.close();
  }
}

const out = join(REPO, "fixtures", "opencode", version, "writer-golden");
mkdirSync(out, { recursive: true });
for (const [name, prompts] of Object.entries(SCENARIOS)) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "oc-golden-")));
  const cwd = join(root, "project");
  mkdirSync(cwd);
  const oc = await offlineOpenCode(root, version);
  try {
    let id: string | undefined;
    for (const prompt of prompts) {
      const r = await oc.run(["run", ...(id ? ["--session", id] : []), ...prompt], cwd);
      if (r.code !== 0) throw new Error(`${name}: opencode run exited ${r.code}: ${r.stderr}`);
      id ??= String(dump(join(oc.home, "opencode.db")).session!.id);
    }
    const rows = { cwd, ...dump(join(oc.home, "opencode.db")) };
    const text = JSON.stringify(rows, null, 2).replaceAll(root, "/home/user").replaceAll(
      root.slice(1),
      "home/user",
    );
    writeFileSync(join(out, `${name}.rows.json`), `${text}\n`);
    console.log(
      `${name}: ${(rows.messages as Row[]).length} messages, ${(rows.parts as Row[]).length} parts`,
    );
  } finally {
    await oc.close();
    rmSync(root, { recursive: true, force: true });
  }
}
