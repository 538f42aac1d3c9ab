/**
 * install-skill: the embedded session-handoff skill linked (or copied) where each present harness looks,
 * idempotent, never replacing a user's own skill without --force (and then moved aside, not deleted); the
 * skill embedded exactly as skills/session-handoff holds it; skillStatus for doctor.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { SKILLS } from "../lib/generated/skills.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { resolveHomes } from "../lib/harnesses/homes.ts";
import { COPY_MARKER, SKILL_NAME, skillSource, skillStatus } from "../lib/pipeline/skill.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { expectedFor } from "./helpers/harness-material.ts";

const SKILL_DIR = fileURLToPath(new URL("../skills/session-handoff/", import.meta.url));

/** Where each harness keeps its home under the user's when no variable names another. */
/** Where each harness's skills folder sits under the user's home (Gemini CLI's home is the user's own). */
const FOLDERS: Record<string, string> = {
  "claude-code": ".claude",
  codex: ".codex",
  hermes: ".hermes",
  "gemini-cli": ".gemini",
};

/** A private user home; `present` harness homes are created (as a harness's first run would). */
function machine(present: string[]) {
  const home = tempDir("sb-skill-");
  const bridge = join(home, "bridge");
  const folder = (h: string) => expectedFor(FOLDERS, h, "default home folder");
  for (const h of present) mkdirSync(join(home, folder(h)), { recursive: true });
  // HOME decides the default homes; the harness variables are emptied so the suite's own never leak in, and
  // PATH holds no harness binary.
  const env = {
    HOME: home,
    SESSION_BRIDGE_HOME: bridge,
    ...Object.fromEntries(builtinRegistry.harnesses.map((h) => [h.home.env, ""])),
    PATH: "/nonexistent",
  };
  const skillPath = (h: string) => join(home, folder(h), "skills", SKILL_NAME);
  return { home, bridge, env, skillPath };
}

test("the embedded skill is skills/session-handoff byte for byte, with a name and a description harnesses accept", () => {
  const files = readdirSync(SKILL_DIR).sort();
  assert.deepEqual(Object.keys(SKILLS[SKILL_NAME]!).sort(), files);
  for (const f of files) assert.equal(SKILLS[SKILL_NAME]![f], readFileSync(join(SKILL_DIR, f), "utf8"));
  const text = SKILLS[SKILL_NAME]!["SKILL.md"]!;
  const front = parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!) as { name: string; description: string };
  assert.equal(front.name, SKILL_NAME);
  // Hermes' limits (the strictest): name up to 64 characters, description up to 1024.
  assert.ok(front.description.length <= 1024);
  assert.match(front.description, /hand this session off to Codex/i);
  for (const step of ["session-bridge current", "--stub-open-calls", "--dry-run", "undo"]) {
    assert.ok(text.includes(step), step);
  }
});

test("the skill names every registered harness as a target, by its title and by the name --to takes", () => {
  const text = SKILLS[SKILL_NAME]!["SKILL.md"]!;
  for (const harness of builtinRegistry.harnesses) {
    assert.ok(text.includes(harness.title), harness.title);
    assert.ok(text.includes(`\`${harness.name}\``), harness.name);
  }
});

test("install-skill links the skill into each present harness's home, one line each, and again changes nothing", async () => {
  const m = machine(["claude-code", "hermes"]);
  const first = await runCli(["install-skill"], m.env);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^claude-code +linked +\S+\.claude\/skills\/session-handoff$/m);
  assert.match(first.stdout, /^codex +not installed$/m);
  assert.match(first.stdout, /^hermes +linked /m);
  assert.equal(readlinkSync(m.skillPath("claude-code")), skillSource(m.bridge));
  // The harness reads the skill's own files through the link, written from the binary into the bridge home.
  assert.equal(
    readFileSync(join(m.skillPath("hermes"), "SKILL.md"), "utf8"),
    SKILLS[SKILL_NAME]!["SKILL.md"],
  );
  assert.ok(!existsSync(join(m.home, ".codex")), "an absent harness gets no home");
  const again = await runCli(["install-skill"], m.env);
  assert.match(again.stdout, /^claude-code +already linked /m);
  assert.match(again.stdout, /^hermes +already linked /m);
});

test("install-skill honours the harness's home variable and --harness installs a named harness not yet present", async () => {
  const m = machine([]);
  const codexHome = join(m.home, "elsewhere", "codex");
  const { json, code } = await runCliJson(["install-skill", "--harness", "codex"], {
    ...m.env,
    CODEX_HOME: codexHome,
  });
  assert.equal(code, 0);
  const lines = json.harnesses as { harness: string; outcome: string; path: string }[];
  assert.deepEqual(lines.map((l) => [l.harness, l.outcome]), [["codex", "linked"]]);
  assert.equal(lines[0]!.path, join(codexHome, "skills", SKILL_NAME));
  assert.ok(lstatSync(join(codexHome, "skills", SKILL_NAME)).isSymbolicLink());
});

test("a user's own skill of that name is refused (exit 1) and left untouched; --force moves it aside", async () => {
  const m = machine(["claude-code"]);
  const theirs = m.skillPath("claude-code");
  mkdirSync(theirs, { recursive: true });
  writeFileSync(join(theirs, "SKILL.md"), "---\nname: session-handoff\ndescription: mine\n---\nmy own\n");
  const refused = await runCli(["install-skill"], m.env);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /^claude-code +refused: a different skill is there /m);
  assert.equal(readFileSync(join(theirs, "SKILL.md"), "utf8").includes("my own"), true);
  const uninstall = await runCli(["install-skill", "--uninstall"], m.env);
  assert.equal(uninstall.code, 1);
  assert.ok(existsSync(join(theirs, "SKILL.md")), "uninstall never removes a skill it did not put there");
  const forced = await runCliJson(["install-skill", "--force"], m.env);
  assert.equal(forced.code, 0);
  const line = (forced.json.harnesses as { harness: string; movedAside?: string }[])[0]!;
  assert.ok(line.movedAside && line.movedAside.startsWith(join(m.bridge, "backups", "skills")));
  assert.ok(readFileSync(join(line.movedAside, "SKILL.md"), "utf8").includes("my own"));
  assert.equal(realpathSync(theirs), realpathSync(skillSource(m.bridge)));
});

test("--copy writes a marked copy, kept current on the next run; --uninstall removes links and copies it made", async () => {
  const m = machine(["claude-code", "codex"]);
  const copied = await runCli(["install-skill", "--copy"], m.env);
  assert.match(copied.stdout, /^claude-code +copied /m);
  const copy = m.skillPath("codex");
  assert.ok(lstatSync(copy).isDirectory());
  assert.ok(existsSync(join(copy, COPY_MARKER)));
  // An older copy of ours (another version of the skill) is updated, not refused.
  writeFileSync(join(copy, "SKILL.md"), "an older version\n");
  const status = skillStatus({
    registry: builtinRegistry,
    homes: resolveHomes(builtinRegistry.harnesses, {}, { HOME: m.home }),
    bridgeHome: m.bridge,
    // HOME too: OpenCode's skills live in its configuration folder, found from the environment, not its home.
    env: { PATH: "/nonexistent", HOME: m.home },
  });
  assert.deepEqual(status.map((s) => [s.harness, s.present, s.state]), [
    ["claude-code", true, "copied"],
    ["codex", true, "stale copy"],
    ["hermes", false, "absent"],
    ["gemini-cli", false, "absent"],
    ["opencode", false, "absent"],
    ["copilot-cli", false, "absent"],
    ["pi", false, "absent"],
  ]);
  const updated = await runCli(["install-skill", "--copy"], m.env);
  assert.match(updated.stdout, /^codex +updated /m);
  assert.match(updated.stdout, /^claude-code +already copied /m);
  const removed = await runCli(["install-skill", "--uninstall"], m.env);
  assert.equal(removed.code, 0);
  assert.match(removed.stdout, /^claude-code +removed /m);
  assert.match(removed.stdout, /^hermes +not there /m);
  assert.ok(!existsSync(copy));
});

test("a harness whose home is the user's own (Gemini CLI) is present once its dot-folder exists, not because the home does", async () => {
  const absent = machine([]);
  const none = await runCli(["install-skill"], absent.env);
  assert.equal(none.code, 0, none.stderr);
  assert.ok(!existsSync(join(absent.home, ".gemini")), "no .gemini made for a harness that never ran");
  const present = machine(["gemini-cli"]);
  const linked = await runCli(["install-skill"], present.env);
  assert.equal(linked.code, 0, linked.stderr);
  assert.match(linked.stdout, /^gemini-cli +linked /m);
  assert.equal(realpathSync(present.skillPath("gemini-cli")), realpathSync(skillSource(present.bridge)));
});
