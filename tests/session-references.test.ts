/**
 * The `<session>` grammar as a user types it, on real captured stores: the forms of lib/pipeline/reference.ts
 * (`latest`, `latest --from codex`, `codex~2`, id prefixes, titles), and what `list` shows to type.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { cli, emptyHomes, homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { newestFirst } from "../lib/pipeline/newest.ts";
import { REFERENCE_FORMS } from "../lib/pipeline/reference.ts";

const root = tempDir();
const claudeHome = join(root, "claude");
const codexHome = join(root, "codex");
const hermesHome = join(root, "hermes");
seedClaudeHome(claudeHome, "plain-text");
seedClaudeHome(claudeHome, "thinking-tool-use");
makeCodexHome(codexHome);
const codex = ["text-turns", "tool-call", "interrupted"].map((s) => seedCodexThread(codexHome, "0.169.0", s));
const homes = homeFlags({ "claude-code": claudeHome, codex: codexHome, hermes: hermesHome }, root);

interface Row {
  harness: string;
  id: string;
  prefix: string;
  title?: string;
  updatedAt?: string;
}

async function listed(...args: string[]): Promise<Row[]> {
  const r = await runCliJson(["list", ...args, ...homes]);
  assert.equal(r.code, 0, JSON.stringify(r.json));
  return r.json.sessions as Row[];
}

/** The id `inspect <ref>` resolves to (and its stderr, which must be empty). */
async function resolvedId(...ref: string[]): Promise<string> {
  const r = await runCliJson(["inspect", ...ref, ...homes]);
  assert.equal(r.code, 0, `${ref.join(" ")}: ${JSON.stringify(r.json)}`);
  return (r.json.session as { id: string }).id;
}

test("Codex's time-ordered ids share their first 8 characters in these fixtures (why list shows longer prefixes)", () => {
  assert.equal(new Set(codex.map((c) => c.id.slice(0, 8))).size, 1);
});

test("sessions updated at the same moment are in id order code unit by code unit, the same in every locale", () => {
  const at = "2026-06-01T10:00:00.000Z";
  const ids = ["b-1", "B_2", "a_3", "_x", "20260601_100000_ab12cd"];
  const sessions = [
    { harness: "codex", id: "newer", path: "/n", updatedAt: "2026-06-01T10:00:00.001Z" },
    ...ids.map((id) => ({ harness: "hermes", id, path: `/${id}`, updatedAt: at })),
  ];
  assert.deepEqual(newestFirst(sessions).map((s) => s.id), ["newer", ...[...ids].sort()]);
});

test("list shows each id's shortest unique prefix, and each resolves to its session", async () => {
  const rows = await listed();
  assert.equal(rows.length, 5);
  const table = await runCli(["list", ...homes]);
  for (const row of rows) {
    assert.ok(row.id.startsWith(row.prefix), `${row.prefix} starts ${row.id}`);
    assert.ok(row.prefix.length >= 6);
    assert.match(table.stdout, new RegExp(`^${row.harness}\\s+${row.prefix}\\s`, "m"));
    assert.doesNotMatch(table.stdout, new RegExp(row.id), "the table shows the prefix, not the whole id");
    assert.equal(await resolvedId(row.prefix), row.id);
    // One character fewer no longer names it alone: it is the shortest.
    if (row.prefix.length > 6) {
      const shorter = await runCli(["inspect", row.prefix.slice(0, -1), ...homes]);
      assert.equal(shorter.code, 2);
      assert.match(shorter.stderr, /is ambiguous/);
    }
  }
  for (const c of codex) {
    assert.ok(rows.find((r) => r.id === c.id)!.prefix.length > 8, "Codex prefixes pass 8");
  }
});

test("list --full-ids shows whole ids", async () => {
  const r = await runCli(["list", "--full-ids", ...homes]);
  for (const c of codex) assert.match(r.stdout, new RegExp(`^codex\\s+${c.id}\\s`, "m"));
});

test("latest is the first session list shows", async () => {
  const [first] = await listed();
  assert.equal(await resolvedId("latest"), first!.id);
});

test("latest --from codex is the first Codex session list --from codex shows", async () => {
  const [first] = await listed("--from", "codex");
  assert.equal(await resolvedId("latest", "--from", "codex"), first!.id);
  assert.ok(codex.some((c) => c.id === first!.id));
});

test("codex~2 is the second Codex session list shows, codex~1 the first, and latest~N counts across harnesses", async () => {
  const rows = await listed("--from", "codex");
  assert.equal(await resolvedId("codex~1"), rows[0]!.id);
  assert.equal(await resolvedId("codex~2"), rows[1]!.id);
  assert.equal(await resolvedId("codex~3"), rows[2]!.id);
  const all = await listed();
  assert.equal(await resolvedId("latest~4"), all[3]!.id);
});

test("a harness alias names its sessions too: claude~2", async () => {
  const rows = await listed("--from", "claude-code");
  assert.equal(await resolvedId("claude~2"), rows[1]!.id);
  assert.equal(await resolvedId("Claude-Code~1"), rows[0]!.id);
});

test("codex~9 with three Codex sessions says how many there are (exit 2)", async () => {
  const r = await runCli(["inspect", "codex~9", ...homes]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no 9th newest session \("codex~9"\): there are only 3/);
});

test("codex~0 says N counts from 1", async () => {
  const r = await runCli(["inspect", "codex~0", ...homes]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /N counts from 1 \(the newest is codex~1\)/);
});

test("claude~1 --from codex is a contradiction, not a guess", async () => {
  const r = await runCli(["inspect", "claude~1", "--from", "codex", ...homes]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /"claude~1" names claude-code, but --from says codex/);
});

test("latest in empty stores says where it looked", async () => {
  const empty = join(root, "empty");
  const r = await runCli([
    "inspect",
    "latest",
    ...emptyHomes(empty),
  ]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /there are none \(looked in claude-code: .*empty\/empty-claude-code\/projects; codex: .*empty\/empty-codex; hermes: /,
  );
});

test("an id prefix below 6 characters says it is too short instead of no session matches", async () => {
  const r = await runCli(["inspect", codex[0]!.id.slice(0, 4), ...homes]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /id prefix "01a2" is too short: use at least 6 characters \(3 sessions start with it/,
  );
  assert.doesNotMatch(r.stderr, /no session matches/);
});

test("a reference that matches nothing says where it looked", async () => {
  const r = await runCli(["inspect", "no-such-session", ...homes]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(
      `no session matches "no-such-session" \\(looked in claude-code: ${claudeHome}/projects; codex: ${codexHome}; hermes: ${hermesHome}/state.db; gemini-cli: ${root}/empty-gemini-cli/.gemini; opencode: ${root}/empty-opencode/opencode.db; copilot-cli: ${root}/empty-copilot-cli/session-state; pi: ${root}/empty-pi/sessions; try: session-bridge list\\)`,
    ),
  );
});

test("an exact title still names its session", async () => {
  const row = (await listed("--from", "codex")).find((r) => r.title)!;
  assert.equal(await resolvedId(row.title!), row.id);
});

test("handoff, convert and export take the same forms (codex~2)", async () => {
  const second = (await listed("--from", "codex"))[1]!;
  const out = join(root, "second.jsonl");
  const exported = await runCliJson(["export", "codex~2", "-o", out, ...homes]);
  assert.equal(exported.code, 0, JSON.stringify(exported.json));
  assert.equal((exported.json.session as { id: string }).id, second.id);
  const plan = await runCliJson([
    "handoff",
    "codex~2",
    "--to",
    "claude",
    "--dry-run",
    "--cwd",
    root,
    ...homes,
  ]);
  assert.equal(plan.code, 0, JSON.stringify(plan.json));
});

test("--help describes every reference form in the grammar's table", async () => {
  const help = (await runCli(["--help"])).stdout.replace(/\s+/g, " ");
  for (const form of REFERENCE_FORMS) assert.ok(help.includes(`${form.syntax} ${form.means}`), form.syntax);
});

test("a dry run of handoff latest pins the planned session: its command names the full id and harness", async () => {
  const [first] = await listed();
  const plan = await runCliJson([
    "handoff",
    "latest",
    "--to",
    "codex",
    "--dry-run",
    "--cwd",
    root,
    ...homes,
  ]);
  assert.equal(plan.code, 0, JSON.stringify(plan.json));
  const reproduce = plan.json.reproduce as string;
  assert.match(
    reproduce,
    new RegExp(`^session-bridge handoff ${first!.id} --to codex --from ${first!.harness} `),
  );
  assert.doesNotMatch(reproduce, /\blatest\b/);
});

test("a handoff whose source's directory does not exist here says so and asks for --cwd", async () => {
  const r = await runCli(["handoff", "codex~1", "--to", "claude", ...homes]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    "session-bridge: the session was recorded in /home/user/project, which does not exist here: " +
      "pass --cwd DIR to resume it in another directory\n",
  );
});

test("an ambiguous prefix names each candidate's shortest prefix to type instead", async () => {
  const r = await runCli(["inspect", codex[0]!.id.slice(0, 8), ...homes]);
  assert.equal(r.code, 2);
  const hint = /\(name one by its shortest prefix: ([^)]+)\)\n$/.exec(r.stderr)?.[1];
  assert.ok(hint, r.stderr);
  const typed = hint.split(", ");
  assert.equal(typed.length, 3);
  const resolved = await Promise.all(typed.map((p) => resolvedId(p)));
  assert.deepEqual(resolved.sort(), codex.map((c) => c.id).sort());
});

test("list shows times on the person's clock (local time zone), --json keeps the stored UTC", async () => {
  // The captured text-turns thread was last updated at 2026-11-29T20:58:23Z (its threads row).
  const row = (stdout: string) => stdout.split("\n").find((l) => l.includes("Please greet the reviewer"))!;
  const tokyo = cli(["list", "--from", "codex", ...homes], { TZ: "Asia/Tokyo" });
  assert.match(row(tokyo.stdout), /\s2026-11-30 05:58\s/);
  const utc = cli(["list", "--from", "codex", ...homes], { TZ: "UTC" });
  assert.match(row(utc.stdout), /\s2026-11-29 20:58\s/);
  const json = await listed("--from", "codex");
  assert.match(
    json.find((r) => r.id === codex[0]!.id)!.updatedAt!,
    /^2026-11-29T20:58:23/,
  );
});

test("list -n 2 shows the two newest and says how many there are", async () => {
  const all = await listed();
  const r = await runCli(["list", "-n", "2", ...homes]);
  assert.equal(r.code, 0);
  const rows = r.stdout.trim().split("\n").slice(1);
  assert.deepEqual(rows.map((l) => l.split(/\s+/)[1]), all.slice(0, 2).map((s) => s.prefix));
  assert.equal(r.stderr, "2 of 5 sessions shown (-n N for more)\n");
  const json = await runCliJson(["list", "--limit", "2", ...homes]);
  assert.equal((json.json.sessions as Row[]).length, 2);
  assert.equal(json.json.total, 5);
  const zero = await runCli(["list", "-n", "0", ...homes]);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /-n expects a whole number of sessions, at least 1, not "0"/);
});
