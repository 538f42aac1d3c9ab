/**
 * The patterns rewritten to run in linear time (issue 36): each finishes on a 1 MiB attack string shaped like
 * the one the ReDoS checker found for the old pattern (the old one needs minutes to hours on these, so a
 * regression runs into the runner's timeout; nothing here is timed), and gives the old pattern's results on
 * ordinary input. Patterns are taken from the source file itself, so the test follows the code.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { regexesIn } from "./helpers/regex-sources.ts";
import { DEFAULT_PATTERNS, redactString, type SecretPattern } from "../lib/observe/redact.ts";
import { redactJsonLine } from "../lib/observe/redact-transcript.ts";
import { streamFromBytes } from "../lib/io/jsonl.ts";
import { threadIdOf } from "../lib/harnesses/codex/certify/run.ts";
import { hermesReply } from "../lib/harnesses/hermes/certify/run.ts";
import { bashRules } from "../lib/harnesses/claude-code/certify/tui.ts";
import { defaultScript, userPromptText } from "../lib/certify-kit/fake-servers/anthropic.ts";
import { LONGEST_MODEL_NAME, priceOf } from "../lib/observe/prices.ts";
import { LogReplay } from "../lib/harnesses/gemini-cli/replay.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MiB = 1 << 20;
const FOUND = regexesIn(ROOT, ["lib"]);

/** The pattern written in `file` with this source (it must be there: the test follows the code). */
function written(file: string, source: string): RegExp {
  const hit = FOUND.find((f) => f.file === file && f.source === source);
  assert.ok(hit, `${file} no longer has /${source}/`);
  return new RegExp(source, hit.flags);
}

interface Rewrite {
  name: string;
  files: string[];
  old: RegExp;
  now: string;
  /** What the code does with the pattern. */
  use: (pattern: RegExp, text: string) => unknown;
  ordinary: string[];
  attack: string;
}

const replaced = (by: string) => (pattern: RegExp, text: string) => text.replace(pattern, by);
const group = (n: number) => (pattern: RegExp, text: string) => pattern.exec(text)?.[n];

const REWRITES: Rewrite[] = [
  {
    name: "a run of whitespace holding a line break becomes one separator",
    files: [
      "lib/certify-kit/spawn.ts",
      "lib/cli/main.ts",
      "lib/harnesses/codex/certify/tui.ts",
      "lib/store/sqlite.ts",
    ],
    old: /\s*\n\s*/g,
    now: String.raw`(?<!\s)[^\S\n]*\n\s*`,
    use: replaced(" | "),
    ordinary: ["a\n b", "a  \n\n  b\r\nc", " \n", "x\ty\n", "no break here", "\n\n", "a \t b\n"],
    attack: `${"\t".repeat(MiB)}\0\n`,
  },
  {
    name: "the number a SQLite message ends with",
    files: ["lib/store/sqlite.ts"],
    old: /(-?\d+)\s*$/,
    now: String.raw`(-?(?<!\d)\d+)\s*$`,
    use: group(1),
    ordinary: ["value 123", "12-34", "x--5", "n -7 ", "none", "-", "9007199254740993\n"],
    attack: `${"0".repeat(MiB)}\u00000x`,
  },
  {
    name: "the first dotted version a binary prints",
    files: ["lib/certify-kit/binaries.ts"],
    old: /\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?/,
    now: String.raw`(?<!\d)\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?`,
    use: group(0),
    ordinary: ["2.1.328 (Claude Code)", "codex-cli 0.169.0", "v1.2.3-beta.1+x", "1.2", "12.3.4.5", "a1.2.3"],
    attack: `${"0".repeat(MiB)}0A0.0`,
  },
  {
    name: "trailing slashes",
    files: ["lib/observe/otel.ts", "lib/registry/scope.ts"],
    old: /\/+$/,
    now: String.raw`(?<!\/)\/+$`,
    use: replaced(""),
    ordinary: ["/a/b///", "/", "a", "//x//", "/v1/traces/", "a/b"],
    attack: `${"/".repeat(MiB)}\0`,
  },
  {
    name: "a database path in doctor's error text",
    files: ["lib/pipeline/doctor.ts"],
    old: /(\/[^\s:]+\.(?:db|sqlite|sqlite3))\b/,
    now: String.raw`(?<![^\s:])[^\s:/]*(\/[^\s:]+\.(?:db|sqlite|sqlite3))\b`,
    use: group(1),
    ordinary: [
      "unable to open database file: /home/u/.hermes/state.db",
      "file is not a database (/a/b.sqlite3)",
      "x /a.db.bak y",
      "at /p/q/r.sqlite:3",
      "no path",
      "rel/b/c.db and /abs/d.db",
      "/a.dbx /b.db",
    ],
    attack: `${"te/\0".repeat(MiB / 4)}te`,
  },
  {
    name: "dots and underscores trimmed from a Hermes file name's ends",
    files: ["lib/harnesses/hermes/ids.ts"],
    old: /^[._]+|[._]+$/g,
    now: String.raw`^[._]+|(?<![._])[._]+$`,
    use: replaced(""),
    ordinary: ["__a__", "...", "a._b", "_", "a", "_a_b_", "a__"],
    attack: `\0${".".repeat(MiB)}\0`,
  },
];

for (const rewrite of REWRITES) {
  test(`linear: ${rewrite.name}, as before on ordinary text`, () => {
    for (const file of rewrite.files) {
      const now = written(file, rewrite.now);
      for (const text of rewrite.ordinary) {
        assert.deepEqual(
          rewrite.use(now, text),
          rewrite.use(rewrite.old, text),
          `${file} on ${JSON.stringify(text)}`,
        );
      }
      rewrite.use(now, rewrite.attack);
    }
  });
}

test("linear: bash rules split on the operators alone, the same parts as before", () => {
  const old = (command: string) => {
    const parts = command.split(/\s*(?:;|&&|\|\||\|)\s*/).map((p) => p.trim()).filter((p) => p !== "");
    return [...new Set([command, ...parts])].map((p) => `Bash(${p})`);
  };
  for (const command of ["a; b && c || d | e", "ls  ;  ; pwd", "a||b|c", "echo hi", " x ;y "]) {
    assert.deepEqual(bashRules(command), old(command), command);
  }
  assert.equal(bashRules(`${" ".repeat(MiB)}x`).length, 2);
});

/** The redactor's patterns as they were before the rewrite. */
const OLD_REDACTOR: SecretPattern[] = DEFAULT_PATTERNS.map((p) => {
  const old: Record<string, string> = {
    jwt: String.raw`eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}`,
    "private-key": String
      .raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`,
    "url-password": String.raw`([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@?#]+:)[^\s@/?#]+@`,
  };
  const source = old[p.label];
  return source === undefined ? p : { ...p, pattern: new RegExp(source, p.pattern.flags) };
});

const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nq83vEXAMPLE\n-----END RSA PRIVATE KEY-----";
const REDACTOR_ORDINARY = [
  `token ${JWT} end`,
  `x${JWT}`,
  `eyJab.${JWT}`,
  `eyJabeyJabcd.efgh.ijkl`,
  `-${JWT}-eyJ`,
  `key:\n${PEM}\nafter`,
  `${PEM}\n${PEM}`,
  `-----BEGIN PRIVATE KEY-----\nunfinished\n${PEM}`,
  "-----BEGIN PRIVATE KEY----- never ended",
  "-----BEGIN EC PRIVATE KEY-----\nA\n-----END EC PRIVATE KEY----- and -----END PRIVATE KEY-----",
  "DATABASE_URL=postgres://admin:p4ss@db.internal:5432/app",
  "1http://u:p@h and x+git+ssh://me:secret@host/repo",
  "ssh://git@github.com/owner/repo.git",
  "a://b:c@d ftp://e:f:g@h",
  "123://u:p@h 9a.b-c://u:p@h",
  "see https://github.com/owner/repo/pull/12 and http://localhost:8080/path",
  "nothing secret at all",
];

test("linear: the redactor's output is unchanged on ordinary text", () => {
  for (const text of REDACTOR_ORDINARY) {
    assert.equal(redactString(text), redactString(text, OLD_REDACTOR), JSON.stringify(text));
  }
});

test("linear: the redactor finishes on 1 MiB runs that made jwt, private-key and url-password quadratic", () => {
  const attacks = [
    "eyJyyyy".repeat(MiB / 7),
    "A".repeat(MiB),
    "-----BEGIN PRIVATE KEY-----".repeat(MiB / 27),
    `-----BEGIN PRIVATE KEY-----${"-----END A A A".repeat(MiB / 14)}`,
    "a://a:".repeat(MiB / 6),
    `${"1+2.3-".repeat(MiB / 6)}a`,
  ];
  for (const text of attacks) assert.equal(redactString(text), text);
});

test("linear: a transcript line's string literals are found as before, an unterminated one read once", () => {
  const old = (line: string) =>
    line.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
      let decoded: string;
      try {
        decoded = JSON.parse(literal) as string;
      } catch {
        return literal;
      }
      const text = redactString(decoded);
      return text === decoded ? literal : JSON.stringify(text);
    });
  const lines = [
    JSON.stringify({ a: `x ${JWT}`, b: ["plain", PEM], c: 3 }),
    '{"a":"unterminated \\" here',
    `"a\\\n" "${JWT}"`,
    '"" "\\\\" "\\u0041"',
  ];
  for (const line of lines) assert.equal(redactJsonLine(line, { count: 0 }), old(line), line);
  const attack = `"${'\\"'.repeat(MiB / 2)}`;
  assert.equal(redactJsonLine(attack, { count: 0 }), attack);
});

test("linear: a size in the environment is read as before, a long run of spaces refused at once", () => {
  const env = (value: string) => ({ SESSION_BRIDGE_STREAM_FROM: value });
  const old = (given: string) => {
    const m = /^\s*(\d+)\s*([KMG]?)i?B?\s*$/i.exec(given);
    return m ? Number(m[1]) * 1024 ** " KMG".indexOf((m[2] || " ").toUpperCase()) : NaN;
  };
  for (const value of ["64", " 8 M ", "2GiB", "3kb", "10 MiB\n", "1 K B", "x", "12 Q"]) {
    const expected = old(value);
    if (Number.isNaN(expected)) assert.throws(() => streamFromBytes(env(value)), value);
    else assert.equal(streamFromBytes(env(value)), expected, value);
  }
  assert.throws(() => streamFromBytes(env(`0\t${"\t".repeat(MiB)}\t0`)));
});

test("linear: codex's thread id is the first after a line's first thread.started, as before", () => {
  const id = "0199a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b";
  const old = (stdout: string) => /"thread\.started".*?"thread_id":"([0-9a-f-]{36})"/.exec(stdout)?.[1];
  const outputs = [
    `{"type":"thread.started","thread_id":"${id}"}\n`,
    `noise\n{"type":"thread.started"}\n{"thread_id":"${id}"}\n{"type":"thread.started","x":1,"thread_id":"${id}"}`,
    `{"thread_id":"${id}","type":"thread.started"}`,
    "nothing",
  ];
  for (const stdout of outputs) assert.equal(threadIdOf(stdout), old(stdout), stdout);
  assert.equal(threadIdOf(`${'"thread.started"r'.repeat(MiB / 17)}\n`), undefined);
});

test("linear: Hermes's resume banner is removed as before, and a long unended one read once", () => {
  const old = (stdout: string) =>
    stdout.replace(/^session_id:.*$/m, "")
      .replace(/^\s*↻ Resumed session [\s\S]*?\d+\s+total(?:\s+messages)?\)\r?$/m, "").trim();
  const outputs = [
    'session_id: 20260101_000000_abcdef\n↻ Resumed session 20260101 "A title"\n(3 user messages, 7 total\nmessages)\nThe answer.',
    'answer1\n\n\n  ↻ Resumed session x "t" (1 user messages, 2 total messages)\r\nanswer2',
    "text ↻ Resumed session x (1 user, 2 total messages)\nnext\n↻ Resumed session y (1 user, 22 total)\nend",
    "↻ Resumed session never ended\nplain answer",
    "no banner",
  ];
  for (const stdout of outputs) assert.equal(hermesReply(stdout), old(stdout), stdout);
  const attack = `${"\n".repeat(MiB / 2)}\n↻ Resumed session ${"0".repeat(MiB / 2)}e`;
  assert.equal(hermesReply(attack), attack.trim());
});

test("linear: the fake Anthropic server strips reminders and reads EDIT: as before", () => {
  const user = (text: string) => ({ role: "user" as const, content: text });
  const oldStrip = (text: string) => text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
  const texts = [
    "<system-reminder>a</system-reminder> keep <system-reminder>b</system-reminder>",
    "<system-reminder>open <system-reminder>x</system-reminder> tail",
    "<system-reminder>never closed",
    "plain",
  ];
  for (const text of texts) assert.equal(userPromptText(user(text)), oldStrip(text) || text, text);
  assert.equal(userPromptText(user(`${"<system-reminder>".repeat(MiB / 17)}x`)).length > 0, true);
  const edit = (prompt: string) => {
    const reply = JSON.stringify(defaultScript({ model: "m", messages: [user(prompt)] }));
    return /"input":(\{"file_path":[^}]*\})/.exec(reply)?.[1];
  };
  const expected = JSON.stringify({ file_path: "a.txt", old_string: "old", new_string: "new" });
  assert.equal(edit("EDIT: a.txt old new"), expected);
  assert.equal(edit("do EDIT:a.txt old new EDIT: b c d"), expected);
  assert.equal(edit("EDIT: a.txt old"), undefined);
  assert.equal(edit(`${"EDIT:I".repeat(MiB / 6)}D`), undefined);
});

test("linear: a model name longer than the bound is unpriced without being read", () => {
  assert.ok(priceOf("claude-opus-4-5[1m]") !== undefined || priceOf("gpt-5") !== undefined);
  assert.equal(priceOf(`gpt-5@${"@".repeat(LONGEST_MODEL_NAME)}`), undefined);
  assert.equal(priceOf("[".repeat(MiB)), undefined);
});

test("linear: a Gemini CLI log of a rewind a line replays as before, each rewind costing what it drops", () => {
  // Each rewind copied every id the log held: 100,000 messages each rewound and written again took over 200 s
  // (past the runner's timeout), and take a fraction of a second now; nothing here is timed.
  const replay = new LogReplay("/logs/session.jsonl", "gemini-cli");
  let line = 0;
  const add = (value: unknown) =>
    replay.add({ line: ++line, offset: line * 100, length: 99, value, text: () => JSON.stringify(value) });
  const message = (id: string, text: string) => add({ id, type: "user", content: [{ text }] });
  const COUNT = 100_000;
  for (let i = 0; i < COUNT; i++) message(`m${i}`, `first ${i}`);
  for (let i = 0; i < COUNT; i++) {
    add({ $rewindTo: `m${COUNT - 1}` });
    message(`m${COUNT - 1}`, `again ${i}`);
  }
  // An ordinary one: back to the middle, then a new message; and an unknown id drops everything.
  add({ $rewindTo: "m3" });
  message("m-new", "after the rewind");
  const kept = replay.result();
  assert.deepEqual(kept.messages.map((m) => (m.record as { id: string }).id), ["m0", "m1", "m2", "m-new"]);
  assert.equal(kept.rewound.length, COUNT + 1);
  assert.deepEqual(kept.rewound[0]!.map((m) => m.line), [COUNT]);
  assert.equal(kept.rewound.at(-1)!.length, COUNT - 3);
  assert.equal(
    (kept.rewound.at(-1)!.at(-1)!.record as { content: [{ text: string }] }).content[0].text,
    `again ${COUNT - 1}`,
  );
  add({ $rewindTo: "no-such-message" });
  const dropped = replay.result();
  assert.deepEqual(dropped.messages, []);
  assert.deepEqual(dropped.rewound.at(-1)!.map((m) => m.line), kept.messages.map((m) => m.line));
});
