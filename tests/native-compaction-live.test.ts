/**
 * A compacted session handed into every harness, resumed by the real binary offline against
 * the kit's fake model server (issue 33): the history before the compaction is written to disk, yet the model
 * is sent the summary and the live thread only, as the source harness's own model was; and the harness's own
 * listing still shows the session. Skipped for a harness whose pinned binary is not installed
 * (`npx bun acceptance/install-harness.ts NAME`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { harnessDir, pinnedVersions } from "../acceptance/install-harness.ts";
import { homeArgs } from "../lib/certify/bridge.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { runCliJson } from "./helpers/cli.ts";
import { openOffline } from "./helpers/offline-harness.ts";
import { tempDir } from "./helpers/tmp.ts";

/** A fixture of another harness holding a real compaction, and what its summary and its two sides say. */
interface CompactedSource {
  path: string;
  /** Words only the summary holds. */
  summary: string;
  /** Words only the history before the compaction holds (never in the summary or the live thread). */
  compacted: string[];
  /** Words of the live thread after the summary. */
  live: string[];
}

const FROM_CLAUDE: CompactedSource = {
  path: "fixtures/claude-code/2.1.332/compacted.jsonl",
  summary: "COMPACT-SUMMARY: s-52fe4e60",
  compacted: ["turn one before compaction", "r-dad5d986"],
  live: ["first turn after compaction", "r-521e185c"],
};

const FROM_PI: CompactedSource = {
  path: "fixtures/pi/0.73.1/compacted.jsonl",
  summary: "SUMMARY: digest 572a8b1c",
  compacted: ["Please say hello to the reviewer.", "digest 3ab3cc6d", "before-compaction"],
  live: ["And one about early trains.", "digest df09301b"],
};

const CASES: { harness: string; source: CompactedSource }[] = [
  { harness: "claude-code", source: FROM_PI },
  { harness: "codex", source: FROM_CLAUDE },
  { harness: "hermes", source: FROM_PI },
  { harness: "pi", source: FROM_CLAUDE },
  { harness: "gemini-cli", source: FROM_CLAUDE },
  { harness: "opencode", source: FROM_CLAUDE },
  { harness: "copilot-cli", source: FROM_CLAUDE },
];

const NEXT = "LIVE-NEXT-PROMPT: carry on after the compaction.";

for (const { harness, source } of CASES) {
  const version = pinnedVersions()[harness]!;
  const skip = existsSync(harnessDir(harness, version)) ? false : `${harness} ${version} is not installed`;
  test(
    `${harness} ${version}: a compacted session handed in keeps its history on disk and the resumed model is sent the summary and the live thread only`,
    { skip, timeout: 300_000 },
    async () => {
      const work = tempDir();
      const { under, cwd } = await openOffline(harness, version, work);
      try {
        const r = await runCliJson(
          [
            "handoff",
            join(import.meta.dirname!, "..", source.path),
            "--to",
            harness,
            "--cwd",
            cwd,
            ...homeArgs(under.homes(), builtinRegistry),
          ],
          { SESSION_BRIDGE_HOME: join(work, "bridge"), ...(under.configEnv?.() ?? {}) },
        );
        assert.equal(r.code, 0, r.stderr);
        const id = (r.json.target as { id: string }).id;
        const entry = (r.json.report as { entries: { code: string; detail: string }[] }).entries
          .find((e) => e.code === "compacted-history");
        assert.match(entry!.detail, /kept on disk/);

        // The history is on disk: read back, the session holds it as compacted history again.
        const inspected = await runCliJson(
          ["inspect", id, "--from", harness, ...homeArgs(under.homes(), builtinRegistry)],
          { SESSION_BRIDGE_HOME: join(work, "bridge"), ...(under.configEnv?.() ?? {}) },
        );
        assert.equal(inspected.code, 0, inspected.stderr);
        const threads = (inspected.json.session as { threads: { kind: string; messages: number }[] }).threads;
        assert.ok(threads.some((t) => t.kind === "compacted" && t.messages > 0), JSON.stringify(threads));

        // Listed before the resume: Gemini CLI 0.61.0's resume of a session whose file is named for an earlier
        // minute leaves an empty sibling file of the same short id, and its next start's session cleanup deletes
        // every file of that short id, the session itself included (docs/harnesses/gemini-cli.md).
        assert.equal(await under.listed(id, cwd), true, "the harness's own listing shows the session");
        const turn = await under.resume(cwd, id, NEXT);
        assert.equal(turn.ok, true, turn.detail);
        const sent = under.lastRequest().map((m) => m.text).join("\n");
        assert.ok(sent.includes(source.summary), `the summary was not sent:\n${sent}`);
        for (const words of [...source.live, NEXT]) assert.ok(sent.includes(words), `not sent: ${words}`);
        // Outside the summary's own message: Copilot CLI lists the user's earlier prompts in the message it
        // wraps a summary in, as its own compaction does.
        const outside = under.lastRequest().filter((m) => !m.text.includes(source.summary)).map((m) => m.text)
          .join("\n");
        for (const words of source.compacted) {
          assert.ok(!outside.includes(words), `compacted history sent: ${words}`);
        }
      } finally {
        await under.close();
      }
    },
  );
}
