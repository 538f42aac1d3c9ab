/** `--summarize-with HARNESS` on convert and handoff: the harness whose model writes a fitted session's summary. */
import { resolve } from "node:path";
import type { Summarizer } from "../fit/summarizer.ts";
import { engineSummarizer } from "../engines/summarizer.ts";
import { harnessFlag, type Values } from "./args.ts";
import type { Context } from "./command.ts";

/** The summarizer `--summarize-with` names, run in the user's environment in `cwd` (absent: not given). */
export async function summarizeWithFlag(
  values: Values,
  context: Context,
  cwd: string | undefined,
): Promise<{ summarizer?: Summarizer }> {
  const harness = harnessFlag(values, "summarize-with", context.registry);
  if (!harness) return {};
  const target = harnessFlag(values, "to", context.registry);
  const place = { env: context.env, cwd: resolve(cwd ?? ".") };
  const summarizer = await engineSummarizer(harness, context.registry, place, target);
  return { summarizer };
}
