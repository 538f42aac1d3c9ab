// Captures what the engine commands of Pi, OpenCode and Copilot CLI print on stdout for one tool-using turn
// (prompt `TOOL: echo hi`), from the real pinned binaries offline against the kit's fake Chat Completions
// server, into tests/fixtures/engine-output/<harness>-<version>.jsonl, paths made neutral (`/project`,
// `/work/...`). tests/engines-observed.test.ts replays them through the engines' live-event readers; its
// expectations are written by hand from the captured lines, so a new capture (new ids, token counts that
// follow the prompt's length) means writing them again from it.
//
//   npx bun acceptance/capture-engine-output.ts [pi|opencode|copilot-cli ...]   (default: all three)
//
// Claude Code's, Codex's and Gemini CLI's captures were made the same way before this script (their commands
// are in the fixtures' README).
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { installHarness, pinnedVersion } from "./install-harness.ts";
import { offlineOpenCode } from "./opencode-offline.ts";
import { startFakeChatCompletions } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { spawnCollect } from "../lib/certify-kit/spawn.ts";
import { JSON_MODE, piEnv, piFolders, writeOfflineAgent } from "../lib/harnesses/pi/certify/run.ts";
import { copilotEnv, copilotFolders, OFFLINE_FLAGS } from "../lib/harnesses/copilot-cli/certify/run.ts";
import { copilotScript } from "../lib/harnesses/copilot-cli/certify/sent.ts";

const OUT = fileURLToPath(new URL("../tests/fixtures/engine-output/", import.meta.url));
const PROMPT = "TOOL: echo hi";
const TIMEOUT_MS = 180_000;

/** One turn's stdout, and the private folders to neutralize in it (each with what it becomes). */
type Capture = (root: string, cwd: string) => Promise<{ stdout: string; neutral: [string, string][] }>;

const CAPTURES: Record<string, Capture> = {
  pi: async (root, cwd) => {
    const server = await startFakeChatCompletions({ logPath: join(root, "requests.jsonl") });
    try {
      const folders = piFolders(join(root, "pi"));
      writeOfflineAgent(folders, server.url);
      const run = await spawnCollect(await installHarness("pi"), JSON_MODE, {
        cwd,
        env: piEnv(folders, process.env.PATH),
        input: PROMPT,
        timeoutMs: TIMEOUT_MS,
      });
      return { stdout: run.stdout, neutral: [] };
    } finally {
      await server.close();
    }
  },
  opencode: async (root, cwd) => {
    const oc = await offlineOpenCode(join(root, "opencode"));
    try {
      // The prompt on stdin, as the engine gives it (`run` would quote a word holding a space).
      const env = Object.fromEntries(
        Object.entries({ ...oc.env, PWD: cwd }).filter((e): e is [string, string] => e[1] !== undefined),
      );
      const run = await spawnCollect(await installHarness("opencode"), ["run", "--format", "json"], {
        cwd,
        env,
        input: PROMPT,
        timeoutMs: TIMEOUT_MS,
      });
      return { stdout: run.stdout, neutral: [] };
    } finally {
      await oc.close();
    }
  },
  "copilot-cli": async (root, cwd) => {
    const server = await startFakeChatCompletions({
      logPath: join(root, "requests.jsonl"),
      script: copilotScript,
    });
    try {
      const env = copilotEnv(copilotFolders(join(root, "copilot")), server.url, process.env);
      const args = [...OFFLINE_FLAGS, "--output-format", "json", "--allow-all-tools", `--prompt=${PROMPT}`];
      const run = await spawnCollect(await installHarness("copilot-cli"), args, {
        cwd,
        env,
        timeoutMs: TIMEOUT_MS,
      });
      return { stdout: run.stdout, neutral: [[env.COPILOT_PKG_CACHE_HOME!, "/work/cache/copilot"]] };
    } finally {
      await server.close();
    }
  },
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CAPTURES);
for (const harness of wanted) {
  const capture = CAPTURES[harness];
  if (!capture) {
    throw new Error(`no engine capture for ${harness}: one of ${Object.keys(CAPTURES).join(", ")}`);
  }
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sb-engine-output-")));
  const cwd = join(root, "project");
  mkdirSync(cwd);
  const { stdout, neutral } = await capture(root, cwd);
  let text = stdout;
  for (const [from, to] of [[cwd, "/project"], ...neutral]) text = text.replaceAll(from!, to!);
  const file = join(OUT, `${harness}-${pinnedVersion(harness)}.jsonl`);
  writeFileSync(file, text);
  console.log(`${file}: ${text.split("\n").filter(Boolean).length} lines`);
}
