/**
 * The Gemini CLI certify driver without session-bridge's reader or writer: what it parses from the fake Gemini
 * server's request log (captured requests of 0.61.0), and the real Gemini CLI 0.61.0 (installed in the harness
 * cache, offline against the fake server) seeding a one-shot session and resuming captured fixtures, each
 * resume checked with certify's own pair check: every earlier part sent once, in order.
 * The live tests are skipped when the binary is not installed (`npx bun acceptance/install-harness.ts gemini-cli`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { harnessDir } from "../acceptance/install-harness.ts";
import type { GeminiRequest } from "../lib/certify-kit/fake-servers/gemini.ts";
import type { HarnessUnderTest } from "../lib/certify-kit/driver.ts";
import { checkOrder, ConversationParts, seededParts, sentinelPlan } from "../lib/certify-kit/sentinels.ts";
import { geminiCliDriver } from "../lib/harnesses/gemini-cli/certify/index.ts";
import { sentMessages } from "../lib/harnesses/gemini-cli/certify/sent.ts";
import { FIXTURE_CWD } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = "0.61.0";
const FIXTURES = fileURLToPath(new URL(`../fixtures/gemini-cli/${VERSION}/`, import.meta.url));
const BIN = join(harnessDir("gemini-cli", VERSION), "bin", "gemini");
const skip = existsSync(BIN)
  ? false
  : `Gemini CLI ${VERSION} is not installed (npx bun acceptance/install-harness.ts gemini-cli)`;

/** The streamed turns of a captured `<scenario>.requests.jsonl` (`{path, contents}` a line). */
function capturedTurns(name: string): GeminiRequest[] {
  return readFileSync(join(FIXTURES, `${name}.requests.jsonl`), "utf8").split("\n").filter(Boolean)
    .map((l) => JSON.parse(l) as { path: string; contents: GeminiRequest["contents"] })
    .filter((r) => r.path.endsWith(":streamGenerateContent"))
    .map((r) => ({ contents: r.contents }));
}

const roles = (request: GeminiRequest) => sentMessages(request).map((m) => m.role);

test("Gemini's own double replay of a call's response on resume counts once, the session context as system", () => {
  const [resumed] = capturedTurns("interrupted");
  // What Gemini CLI 0.61.0 sent resuming its own untouched session: the cancelled response twice, same id.
  const responses = resumed!.contents.flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse);
  assert.equal(responses.length, 2);
  assert.deepEqual(roles(resumed!), [
    "system",
    "user",
    "assistant",
    "user",
    "tool_call",
    "tool",
    "user",
    "assistant",
    "user",
  ]);
  const sent = sentMessages(resumed);
  assert.match(sent[0]!.text, /^<session_context>/);
  assert.equal(sent[5]!.text, "[Operation Cancelled] Reason: Operation cancelled by user");
  assert.deepEqual(JSON.parse(sent[4]!.text), {
    name: "run_shell_command",
    args: { command: "sleep 30", description: "fixture command" },
  });
});

test("a call's response sent again in a later turn, or under another id, counts again", () => {
  const response = (id: string) => ({
    functionResponse: { id, name: "run_shell_command", response: { output: "x" } },
  });
  const request: GeminiRequest = {
    contents: [
      { role: "user", parts: [response("a"), response("b")] },
      { role: "model", parts: [{ text: "between" }] },
      { role: "user", parts: [response("a")] },
    ],
  };
  assert.deepEqual(roles(request), ["tool", "tool", "assistant", "tool"]);
});

test("the model's thought summaries are not counted as its words", () => {
  const request: GeminiRequest = {
    contents: [{
      role: "model",
      parts: [{ text: "**Thinking** about it", thought: true }, { text: "Said." }],
    }],
  };
  assert.deepEqual(sentMessages(request), [{ role: "assistant", text: "Said." }]);
});

/** Every session file under `root`'s chats folders, each with its first line's start: for a failure's message. */
function chatFiles(root: string): string {
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) =>
    /chats\/[^/]+\.jsonl?$/.test(f)
  );
  return files.map((f) => `${f}: ${readFileSync(join(root, f), "utf8").slice(0, 200)}`).join(" | ") ||
    "no session file";
}

/** The driver opened on the installed binary in full mode, with a project folder to run in. */
async function liveGemini(): Promise<{ gemini: HarnessUnderTest; cwd: string; work: string }> {
  const work = realpathSync(tempDir());
  const gemini = await geminiCliDriver.open({
    work,
    bin: BIN,
    version: VERSION,
    mode: "full",
    env: process.env,
    homeVariables: [],
  });
  const cwd = join(work, "project");
  mkdirSync(cwd);
  return { gemini, cwd, work };
}

test(
  "a one-shot Gemini CLI seeding is sent back once per part, in order, on resume (real Gemini CLI 0.61.0)",
  {
    skip,
  },
  async () => {
    const { gemini, cwd, work } = await liveGemini();
    try {
      const plan = sentinelPlan("full", "d00d1e");
      const seeded = await gemini.seed(cwd, plan.prompts);
      assert.match(seeded.firstReply, /^ASSISTANT-REPLY: /);
      // Failed once in CI: Gemini's session cleanup deleted a seeding whose turns straddled a minute (the driver's
      // settings now turn it off); the session files there say what the listing missed.
      assert.equal(await gemini.listed(seeded.id, cwd), true, `${seeded.id} not listed; ${chatFiles(work)}`);
      const turn = await gemini.resume(cwd, seeded.id, "Resumed: note hop-sentinel-d00d1e-1.");
      assert.equal(turn.ok, true, turn.detail);
      const sent = gemini.lastRequest();
      assert.deepEqual(sent.map((m) => m.role), [
        "system",
        "user",
        "assistant",
        "user",
        "tool_call",
        "tool",
        "assistant",
        "user",
      ]);
      const parts = seededParts(plan.prompts, seeded.firstReply, plan.tool)
        .add("typed prompt on resume", ["user"], "hop-sentinel-d00d1e-1");
      assert.deepEqual(checkOrder(sent, parts.parts), []);
    } finally {
      await gemini.close();
    }
  },
);

test(
  "a Gemini CLI session resumed in a later minute than its file is named for stays listed in the driver's home (Gemini's session cleanup is off there; real Gemini CLI 0.61.0)",
  { skip },
  async () => {
    const { gemini, cwd } = await liveGemini();
    try {
      const plan = sentinelPlan("full", "c1ea4e");
      const seeded = await gemini.seed(cwd, plan.prompts);
      // As if seeded an hour earlier: the file is named for its first minute, and the resume is later.
      const chats = join(gemini.homes()["gemini-cli"]!, ".gemini", "tmp", "project", "chats");
      for (const name of readdirSync(chats).filter((n) => n.includes(seeded.id.slice(0, 8)))) {
        renameSync(join(chats, name), join(chats, name.replace(/T\d\d-\d\d-/, "T00-01-")));
      }
      const turn = await gemini.resume(cwd, seeded.id, "Resumed a minute later.");
      assert.equal(turn.ok, true, turn.detail);
      assert.equal(await gemini.listed(seeded.id, cwd), true, readdirSync(chats).join(", "));
    } finally {
      await gemini.close();
    }
  },
);

/**
 * A captured session placed in the driver's home where Gemini CLI keeps the sessions of `cwd`: the project
 * registry, the project folder's root marker, and the file with the neutral cwd (and its hash) made `cwd`'s.
 */
function placeFixture(gemini: HarnessUnderTest, cwd: string, name: string): string {
  const store = join(gemini.homes()["gemini-cli"]!, ".gemini");
  const project = join(store, "tmp", "project");
  mkdirSync(join(project, "chats"), { recursive: true });
  writeFileSync(join(store, "projects.json"), JSON.stringify({ projects: { [cwd]: "project" } }));
  writeFileSync(join(project, ".project_root"), cwd);
  const manifest = JSON.parse(readFileSync(join(FIXTURES, "manifest.json"), "utf8")) as Record<
    string,
    { file: string }
  >;
  const sha = (text: string) => createHash("sha256").update(text).digest("hex");
  const text = readFileSync(join(FIXTURES, `${name}.jsonl`), "utf8")
    .replaceAll(sha(FIXTURE_CWD), sha(cwd))
    .replaceAll(FIXTURE_CWD, cwd)
    .replaceAll("/home/user/.gemini", store);
  const file = manifest[name]!.file.split("/").at(-1)!;
  writeFileSync(join(project, "chats", file), text);
  return (JSON.parse(text.slice(0, text.indexOf("\n"))) as { sessionId: string }).sessionId;
}

/** The parts, in order, of words the capture typed and the fake model answered (its README and requests). */
function parts(...list: [string, ConversationParts["parts"][number]["roles"], string][]): ConversationParts {
  const built = new ConversationParts();
  for (const [label, roles, needle] of list) built.add(label, roles, needle);
  return built;
}

test("with no model a session counts as listed only in the project gemini --list-sessions would list it for", async () => {
  const work = realpathSync(tempDir());
  const gemini = await geminiCliDriver.open({
    work,
    bin: "gemini-is-not-run",
    version: VERSION,
    mode: "structure",
    env: process.env,
    homeVariables: [],
  });
  const cwd = join(work, "project");
  const elsewhere = join(work, "elsewhere");
  mkdirSync(cwd);
  mkdirSync(elsewhere);
  const id = placeFixture(gemini, cwd, "exec-tool");
  assert.equal(await gemini.listed(id, cwd), true);
  assert.equal(await gemini.listed(id, elsewhere), false);
  assert.equal(await gemini.listed("3a9b9114-f20b-43b8-a329-ca5226d59867", cwd), false);
  await gemini.close();
});

test(
  "a captured one-shot session with a tool call resumes with every earlier part sent once, in order (real Gemini CLI 0.61.0)",
  {
    skip,
  },
  async () => {
    const { gemini, cwd } = await liveGemini();
    try {
      const id = placeFixture(gemini, cwd, "exec-tool");
      assert.equal(await gemini.listed(id, cwd), true);
      const turn = await gemini.resume(cwd, id, "After the fixture: one more word.");
      assert.equal(turn.ok, true, turn.detail);
      const expected = parts(
        ["typed prompt", ["user"], "TOOL: echo fixture-out"],
        ["tool call", ["tool_call"], '"command":"echo fixture-out"'],
        ["tool output", ["tool"], "Output: fixture-out"],
        ["answer", ["assistant"], "Tool said: <untrusted_context>"],
        ["typed prompt on resume", ["user"], "After the fixture: one more word."],
      );
      assert.deepEqual(checkOrder(gemini.lastRequest(), expected.parts), []);
    } finally {
      await gemini.close();
    }
  },
);

test(
  "a captured interrupted session (cancelled call, queued words, resumed once) resumes with every earlier part sent once, in order (real Gemini CLI 0.61.0)",
  {
    skip,
  },
  async () => {
    const { gemini, cwd } = await liveGemini();
    try {
      const id = placeFixture(gemini, cwd, "interrupted");
      const turn = await gemini.resume(cwd, id, "After the fixture: one more word.");
      assert.equal(turn.ok, true, turn.detail);
      const expected = parts(
        ["typed prompt 1", ["user"], "First typed line about river boats"],
        ["answer 1", ["assistant"], "ASSISTANT-REPLY: acknowledged, turn 1, digest 75a470f9."],
        ["typed prompt 2", ["user"], "TOOL: sleep 30"],
        ["interrupted call", ["tool_call"], '"command":"sleep 30"'],
        ["cancelled output", ["tool"], "[Operation Cancelled]"],
        ["queued input", ["user"], "A queued remark about lighthouses"],
        [
          "answer to the queued input",
          ["assistant"],
          "ASSISTANT-REPLY: acknowledged, turn 3, digest c5b338df.",
        ],
        ["prompt of the earlier resume", ["user"], "Resumed: one more word on ferries"],
        ["its answer", ["assistant"], "ASSISTANT-REPLY: acknowledged, turn 3, digest 9076990c."],
        ["typed prompt on resume", ["user"], "After the fixture: one more word."],
      );
      assert.deepEqual(checkOrder(gemini.lastRequest(), expected.parts), []);
    } finally {
      await gemini.close();
    }
  },
);
