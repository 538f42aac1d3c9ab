/**
 * `--summarize-with HARNESS`: the harness's model, through its real binary, writes a fitted session's summary
 * (lib/fit/summarizer.ts says what it is asked). The turn is one the harness does not keep, so summarizing
 * leaves nothing in its list: harnesses whose binary runs a turn without keeping it (Claude Code
 * `--no-session-persistence`, Codex `exec --ephemeral`, Pi `--no-session`), or that delete a conversation with
 * their own command once the turn has ended (Gemini CLI `--delete-session`, OpenCode `session delete`, Hermes
 * Agent `sessions delete`), can summarize; one that could not delete it is reported. The harness runs in the
 * user's environment, so it answers with the model and the credentials it always uses. A target that compacts
 * an over-window history itself on resume (Hermes Agent, Copilot CLI) summarizes for itself: it is written
 * whole and its own compaction, with its own model, makes the summary.
 */
import type { Harness } from "../harnesses/types.ts";
import { InputError, RefusedError } from "../errors.ts";
import type { Registry } from "../harnesses/registry.ts";
import type { Summarizer } from "../fit/summarizer.ts";
import { modelWindow } from "../fit/windows.ts";
import { HarnessEngine } from "./engine.ts";
import { definedEnv } from "../certify-kit/spawn.ts";
import { lastWords } from "./last-words.ts";

/** How long the summarizing turn may take before the handoff gives up on it (nothing written). */
const SUMMARY_TIMEOUT_MS = 10 * 60_000;

export interface SummarizerPlace {
  /** The environment the harness runs in (its PATH finds the binary). */
  env: NodeJS.ProcessEnv;
  /** The folder it runs in. */
  cwd: string;
  timeoutMs?: number;
}

/** The harnesses of `registry` that can summarize without keeping a conversation. */
export async function summarizingHarnesses(registry: Registry): Promise<string[]> {
  const able = await Promise.all(
    registry.harnesses.map(async (h) => (await canSummarize(h)) ? [h.name] : []),
  );
  return able.flat();
}

async function canSummarize(harness: Harness): Promise<boolean> {
  const spec = await harness.integrations.engine?.();
  return spec !== undefined && (spec.supports?.includes("ephemeral") === true || spec.forget !== undefined);
}

/**
 * `harness` as the summarizer of a session fitted for `target`: the target itself when it compacts an
 * over-window history on resume (its own compaction makes the summary), else a harness that can run a turn
 * without keeping it; bad usage otherwise.
 */
export async function engineSummarizer(
  harness: Harness,
  registry: Registry,
  place: SummarizerPlace,
  target?: Harness,
): Promise<Summarizer> {
  const models = harness.conversation.models;
  const window = modelWindow(models, undefined, {}).tokens;
  if (harness.name === target?.name && harness.conversation.capabilities.compactsOverWindow) {
    return { name: harness.name, window, compactsOnResume: true };
  }
  const spec = await harness.integrations.engine?.();
  if (!spec || !(await canSummarize(harness))) {
    const own = registry.harnesses.filter((h) => h.conversation.capabilities.compactsOverWindow).map((h) =>
      h.name
    );
    throw new InputError(
      `--summarize-with ${harness.name}: ${harness.name} can neither run a turn without keeping it nor ` +
        `delete one from its list; ` +
        `one of ${(await summarizingHarnesses(registry)).join(", ")} can (or, into itself, ${
          own.join(" or ")
        }, which compacts on resume)`,
    );
  }
  return {
    name: harness.name,
    window,
    ...(spec.promptBytes !== undefined ? { promptBytes: spec.promptBytes } : {}),
    async summarize(prompt) {
      const engine = new HarnessEngine(harness, {
        bin: spec.command,
        cwd: place.cwd,
        env: definedEnv(place.env),
        persistSession: false,
        timeoutMs: place.timeoutMs ?? SUMMARY_TIMEOUT_MS,
      });
      const outcome = await engine.run(prompt).catch((error: unknown) => {
        // A binary that cannot be run is the user's to fix (exit 2), said as the flag's.
        if (error instanceof InputError) {
          throw new InputError(`--summarize-with ${harness.name}: ${error.message}`);
        }
        throw error;
      });
      const reply = outcome.reply.trim();
      // A turn not kept has no alias, so its only warning is a conversation its harness could not delete.
      const leftBehind = outcome.warnings.join("; ");
      if (!outcome.ok || !reply) {
        const why = outcome.timedOut
          ? "timed out"
          : lastWords(outcome.stderr) || `exited ${outcome.exitCode ?? outcome.signal}`;
        throw new RefusedError(
          `--summarize-with ${harness.name}: its model wrote no summary (${why}); nothing was written` +
            (leftBehind ? `; ${leftBehind}` : ""),
        );
      }
      return { text: reply, ...(leftBehind ? { leftBehind } : {}) };
    },
  };
}
