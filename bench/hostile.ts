/**
 * Issue 36's hostile sessions for the bench: a Claude Code session (fixtures/claude-code/2.1.328/
 * thinking-tool-use.jsonl) whose one tool result is N MiB of one letter, or of URL-scheme characters, beside
 * the same session with N MiB of ordinary prose there. Built with the fuzz campaign's long-run pieces, so the
 * bench times exactly what the campaign judges.
 */
import * as api from "../lib/mod.ts";
import { builtinCoverage } from "../tests/helpers/harness-material.ts";
import { fixtureCatalog } from "../campaigns/fuzz/catalog.ts";
import { stage } from "../campaigns/fuzz/stage.ts";
import { withTargetStores } from "../campaigns/fuzz/long-run-campaign.ts";
import { LONG_RUNS, type LongRun, longRunText } from "../campaigns/fuzz/long-runs.ts";
import { placeText, sessionFiles, textFields } from "../campaigns/fuzz/text-fields.ts";

const FIXTURE = "claude-code/2.1.328/thinking-tool-use.jsonl";

/** The runs the bench times against ordinary text: the one letter, and what a URL scheme is made of. */
export const HOSTILE_RUNS: readonly LongRun[] = LONG_RUNS.filter((r) =>
  r.name === "letters" || r.name === "scheme-characters"
);

export interface HostileSession {
  /** The folder holding every harness's home and session-bridge's (the bench's environment() layout). */
  dir: string;
  /** The session's transcript. */
  ref: string;
}

/** The fixture staged in `dir`, its tool result lengthened by `bytes` of `run` (ORDINARY: the reference). */
export async function hostileSession(dir: string, run: LongRun, bytes: number): Promise<HostileSession> {
  const covered = await builtinCoverage();
  const world = withTargetStores(stage(fixtureCatalog(covered, FIXTURE)[0]!, dir, covered), covered);
  const [ref] = world.refs;
  const where = { registry: api.builtinRegistry, homes: world.homes, bridgeHome: world.bridgeHome };
  const { session } = await api.load({ ...where, ref: ref! });
  const output = textFields(session).find((f) => f.kind === "tool-output")!;
  placeText(sessionFiles(dir), output.value, `${output.value} ${longRunText(run, bytes)}`);
  return { dir, ref: ref! };
}
