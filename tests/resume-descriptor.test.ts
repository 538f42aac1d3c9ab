/**
 * Each descriptor says how its harness resumes a session: the command, literally, with the harness's home
 * variable set only when the home is not its default one. (tests/resume-commands.test.ts runs the printed
 * commands in a shell; this pins what each descriptor builds.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { BUILTIN_HARNESSES } from "../lib/harnesses/registry.ts";
import { toy } from "./helpers/toy-harness/index.ts";

const ID = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
const env = { HOME: "/home/ada" };
const cwd = "/home/ada/my project";
const { "claude-code": claude, codex, hermes } = BUILTIN_HARNESSES;

test("a session handed to Claude Code resumes with `claude --resume <id>`; CLAUDE_CONFIG_DIR only for another home", () => {
  assert.equal(
    claude.resumeCommand({ id: ID, cwd, home: "/home/ada/.claude", env }),
    `cd '/home/ada/my project' && claude --resume ${ID}`,
  );
  assert.equal(
    claude.resumeCommand({ id: ID, cwd, home: "/srv/claude", env }),
    `cd '/home/ada/my project' && CLAUDE_CONFIG_DIR=/srv/claude claude --resume ${ID}`,
  );
});

test("a session handed to Codex resumes with `codex resume <id>` (and -m when named); CODEX_HOME only for another home", () => {
  assert.equal(
    codex.resumeCommand({ id: ID, cwd, home: "/home/ada/.codex", env }),
    `cd '/home/ada/my project' && codex resume ${ID}`,
  );
  assert.equal(
    codex.resumeCommand({ id: ID, cwd, home: "/srv/codex home", env, model: "gpt-5.1-codex" }),
    `cd '/home/ada/my project' && CODEX_HOME='/srv/codex home' codex resume ${ID} -m gpt-5.1-codex`,
  );
});

test("a session handed to Hermes resumes with `hermes chat --resume <id>` (and -m when named); HERMES_HOME only for another home", () => {
  assert.equal(
    hermes.resumeCommand({ id: "20260101_120000_abc123", cwd, home: "/home/ada/.hermes", env }),
    `cd '/home/ada/my project' && hermes chat --resume 20260101_120000_abc123`,
  );
  assert.equal(
    hermes.resumeCommand({
      id: "20260101_120000_abc123",
      cwd,
      home: "/home/ada/.hermes/profiles/work",
      env,
      model: "anthropic/claude-sonnet-4",
    }),
    "cd '/home/ada/my project' && HERMES_HOME=/home/ada/.hermes/profiles/work " +
      "hermes chat --resume 20260101_120000_abc123 -m anthropic/claude-sonnet-4",
  );
});

test("a harness outside the built-ins (the toy) says its resume command through the same hook", () => {
  assert.equal(
    toy.resumeCommand({ id: ID, cwd: "/w", home: "/home/ada/.toy", env }),
    `cd /w && toy resume ${ID}`,
  );
  assert.equal(
    toy.resumeCommand({ id: ID, cwd: "/w", home: "/t", env }),
    `cd /w && TOY_HOME=/t toy resume ${ID}`,
  );
});
