/**
 * Live: a real Claude Code Edit call (the edit-tool fixture) handed to a fresh Codex home and resumed there by
 * the real Codex (`codex exec resume <id> continue`), then handed back to a fresh Claude Code home and resumed by
 * the real Claude Code. Codex passes when it exits 0 and its request carries the call as a `custom_tool_call`
 * apply_patch with the patch text, answered by a `custom_tool_call_output`; the way back passes when the Edit
 * Claude records and sends is the identical native call. Then the Codex session goes on in Codex: resumed with
 * a turn whose (fake) model answers with an apply_patch of several hunks, which Codex records; handed to a
 * fresh Hermes home and resumed by the real Hermes, it passes when every call Hermes sends has JSON-object
 * arguments (none dropped as corrupt), the Edit and the several-hunk patch among them as Hermes's `patch` tool.
 *
 * Usage: npx bun acceptance/scenarios/edit-roundtrip.ts [--binary dist/session-bridge]   (exit 1 on any FAIL)
 */
import { isDeepStrictEqual } from "node:util";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readClaudeSession } from "../../lib/harnesses/claude-code/read.ts";
import { BUILTIN_HARNESSES } from "../../lib/harnesses/registry.ts";
import type { ToolCallBlock } from "../../lib/ir/schema.ts";
import { binaryArg, type Bridge, bridgeCli, claudeFixture, step, withWork } from "./live.ts";
import { type LiveTarget, startTarget } from "./targets.ts";
import { exchangeOf, unpaired } from "./wire.ts";

const FIXTURE = claudeFixture("edit-tool");

async function editCall(path: string): Promise<ToolCallBlock | undefined> {
  const session = await readClaudeSession(path);
  return session.messages.flatMap((m) => m.blocks).find((b): b is ToolCallBlock =>
    b.type === "tool_call" && b.name === "Edit"
  );
}

/** The patch session-bridge writes for the Edit: Claude's call in canonical terms, rendered for Codex. */
function expectedPatch(edit: ToolCallBlock): unknown {
  const canonical = BUILTIN_HARNESSES["claude-code"].conversation.tools.toCanonical(edit);
  return canonical && BUILTIN_HARNESSES.codex.conversation.tools.fromCanonical(canonical)?.input;
}

function project(work: string, name: string): string {
  mkdirSync(join(work, name));
  return realpathSync(join(work, name));
}

/** Claude Code -> Codex, resumed by Codex: the apply_patch call and its output reach the model. */
async function toCodex(codex: LiveTarget, bridge: Bridge, cwd: string, edit: ToolCallBlock) {
  const written = bridge.handoff([FIXTURE, "--to", "codex", "--cwd", cwd, ...codex.homeFlags]);
  const resumed = await codex.resume(cwd, written.id, "continue");
  const reasons = resumed.ok ? [] : [`codex exec resume failed: ${resumed.detail}`];
  const ex = exchangeOf("codex", codex.requests().at(-1));
  const call = ex.calls.find((c) => c.id === edit.id);
  const patch = expectedPatch(edit);
  if (call?.raw.type !== "custom_tool_call" || call.name !== "apply_patch") {
    reasons.push(`the Edit was not sent as a custom_tool_call apply_patch: ${JSON.stringify(call?.raw)}`);
  } else if (call.args !== patch || !/^\*\*\* Begin Patch\n\*\*\* Update File: /.test(call.args)) {
    reasons.push(`the patch text sent differs: ${JSON.stringify(call.args)}`);
  }
  const output = ex.outputs.find((o) => o.id === edit.id);
  if (output?.raw.type !== "custom_tool_call_output") reasons.push("no custom_tool_call_output answers it");
  const loose = unpaired(ex);
  if (loose.calls.length || loose.outputs.length) reasons.push("the request has unpaired calls or outputs");
  return { id: written.id, reasons };
}

/** Codex -> Claude Code, resumed by Claude: the same Edit is recorded and sent. */
async function backToClaude(
  claude: LiveTarget,
  codex: LiveTarget,
  bridge: Bridge,
  cwd: string,
  codexId: string,
  edit: ToolCallBlock,
) {
  const flags = [...claude.homeFlags, ...codex.homeFlags];
  const written = bridge.handoff([codexId, "--from", "codex", "--to", "claude-code", "--cwd", cwd, ...flags]);
  const same = (call: { name: string; input: unknown } | undefined) =>
    isDeepStrictEqual({ name: call?.name, input: call?.input }, { name: edit.name, input: edit.input });
  const recorded = await editCall(written.path);
  const reasons = same(recorded) ? [] : [`recorded Edit differs: ${JSON.stringify(recorded)}`];
  const resumed = await claude.resume(cwd, written.id, "continue");
  if (!resumed.ok) reasons.push(`claude --resume failed: ${resumed.detail}`);
  const ex = exchangeOf("claude-code", claude.requests().at(-1));
  const sent = ex.calls.find((c) => c.id === edit.id);
  if (!same(sent && { name: sent.name, input: sent.raw.input })) {
    reasons.push(`sent Edit differs: ${JSON.stringify(sent?.raw)}`);
  }
  if (!ex.outputs.some((o) => o.id === edit.id)) reasons.push("no tool_result answers the Edit");
  return reasons;
}

/** The file the several-hunk patch changes: the lines the fake model's patch (PATCH-HUNKS) expects. */
const HUNKED = "hunked.txt";

/** The Codex session goes on with a several-hunk apply_patch, then goes to Hermes, resumed there. */
async function onToHermes(
  codex: LiveTarget,
  hermes: LiveTarget,
  bridge: Bridge,
  cwd: string,
  codexId: string,
  edit: ToolCallBlock,
) {
  writeFileSync(join(cwd, HUNKED), "alpha\nmiddle\nomega\n");
  const patched = await codex.resume(cwd, codexId, `PATCH-HUNKS: ${HUNKED}`);
  const reasons = patched.ok ? [] : [`codex exec resume (the patch turn) failed: ${patched.detail}`];
  // Whether Codex may apply it is the posture's business (a read-only sandbox refuses it): the call is recorded.
  const written = bridge.handoff([
    codexId,
    "--from",
    "codex",
    "--to",
    "hermes",
    "--cwd",
    cwd,
    ...codex.homeFlags,
    ...hermes.homeFlags,
  ]);
  const resumed = await hermes.resume(cwd, written.id, "continue");
  if (!resumed.ok) reasons.push(`hermes chat --resume failed: ${resumed.detail}`);
  const ex = exchangeOf("hermes", hermes.requests().at(-1));
  const args = (call: { args: string }): unknown => {
    try {
      return JSON.parse(call.args);
    } catch {
      return undefined;
    }
  };
  for (const call of ex.calls) {
    const parsed = args(call);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      reasons.push(`${call.name} (${call.id}) sent with arguments that are no JSON object: ${call.args}`);
    }
  }
  if (ex.texts.some((t) => t.includes("arguments were corrupted"))) {
    reasons.push("Hermes told the model a call's arguments were corrupted");
  }
  const patches = ex.calls.filter((c) => c.name === "patch").map((c) => ({ id: c.id, args: args(c) }));
  const isPatchMode = (a: unknown) =>
    typeof a === "object" && a !== null && (a as { mode?: unknown }).mode === "patch" &&
    /\+ALPHA[\s\S]*\+OMEGA/.test(String((a as { patch?: unknown }).patch));
  if (!patches.some((p) => p.id === edit.id)) reasons.push("the Edit was not sent as Hermes's patch tool");
  if (!patches.some((p) => isPatchMode(p.args))) {
    reasons.push(`the several-hunk patch was not sent in patch mode: ${JSON.stringify(patches)}`);
  }
  const loose = unpaired(ex);
  if (loose.calls.length || loose.outputs.length) reasons.push("the request has unpaired calls or outputs");
  return reasons;
}

async function main(): Promise<number> {
  const binary = binaryArg();
  const edit = await editCall(FIXTURE);
  if (!edit) throw new Error(`${FIXTURE}: no Edit call`);
  return await withWork("sb-edit-roundtrip-", async (work) => {
    const bridge = bridgeCli(binary, join(work, "bridge"));
    const codex = await startTarget("codex", join(work, "codex"));
    const claude = await startTarget("claude-code", join(work, "claude"));
    const hermes = await startTarget("hermes", join(work, "hermes"));
    try {
      let codexId: string | undefined;
      const there = await step(
        "claude-code -> codex: Edit as apply_patch, accepted by codex exec resume",
        async () => {
          const r = await toCodex(codex, bridge, project(work, "codex project"), edit);
          codexId = r.id;
          return r.reasons;
        },
      );
      const back = await step(
        "codex -> claude-code: the identical native Edit, recorded and sent",
        () =>
          codexId
            ? backToClaude(claude, codex, bridge, project(work, "claude project"), codexId, edit)
            : Promise.resolve(["no Codex session to hand back"]),
      );
      const hunks = await step(
        "codex -> hermes: a several-hunk apply_patch and the Edit sent as patch calls with JSON arguments",
        () => {
          const cwd = join(work, "codex project");
          return codexId
            ? onToHermes(codex, hermes, bridge, cwd, codexId, edit)
            : Promise.resolve(["no Codex session to hand on"]);
        },
      );
      return there && back && hunks ? 0 : 1;
    } finally {
      await codex.close();
      await claude.close();
      await hermes.close();
    }
  });
}

if (import.meta.main) process.exitCode = await main();
