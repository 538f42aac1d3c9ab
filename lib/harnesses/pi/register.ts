/**
 * Handoff into Pi: one session file, `<agent folder>/sessions/--<cwd>--/<time>_<id>.jsonl` (the session's
 * start, as the binary names its files). Pi keeps no index: `pi -r` and `pi --session <id>` read the project
 * folders' files (their headers), and `pi -c` takes the folder's most recently modified one, which a handoff
 * just made is (all checked on 0.73.1). So the plan is that file alone, published atomically (written beside,
 * then renamed into place), undone by removing it.
 *
 * Pi holds no lock on a session file: it appends each entry with appendFileSync to the path, and takes
 * proper-lockfile's locks on settings and auth only. Nothing tells a writer that a Pi has a session open. A
 * new session's file cannot be open anywhere; the one case is --force replacing a session of the same id, and
 * the plan says so (a Pi still running on it would append its next entries to the file put in its place).
 *
 * The id is refused when any project folder holds a file of it (`pi --session <id>` looks in every project),
 * unless --force: then that file is replaced in place.
 */
import type { SessionStream } from "../../ir/stream.ts";
import type { HandoffPlan, PlannedFile, PlanPreview, RenderOptions } from "../types.ts";
import { join } from "node:path";
import { handoffPlan, refusedPlan } from "../plan.ts";
import { publishPlannedFiles } from "../publish.ts";
import { refuse } from "../refuse.ts";
import { reportEntry } from "../../report/entry.ts";
import { piSessions, projectFolderName, sessionFileName } from "./home.ts";
import { checkPiSessionId } from "./ids.ts";
import { sessionFiles } from "./locate.ts";
import { resumePi } from "./resume.ts";
import { piModelRef, sessionStart } from "./encode.ts";
import { continuedModel, renderPi } from "./render.ts";
import { piApis, piConfiguresModel, piModelsFile } from "./settings.ts";

export function planPi(
  session: SessionStream,
  options: RenderOptions,
  home: string,
  force: boolean,
): HandoffPlan {
  checkPiSessionId(options.id);
  const store = piSessions(home);
  const taken = sessionFiles(store).find((path) => path.endsWith(`_${options.id}.jsonl`));
  // The session's own file, wherever an earlier handoff of it went: replaced in place under --force.
  const path = taken ??
    join(
      store,
      projectFolderName(options.cwd),
      sessionFileName(sessionStart(session, options.now), options.id),
    );
  const files: PlannedFile[] = [{ path, lines: () => renderPi(session, { ...options, home }) }];
  const plan: PlanPreview = {
    harness: "pi",
    id: options.id,
    path,
    cwd: options.cwd,
    files: [path],
    databases: [],
    // The file names the model it continues on (its last model_change): the command names none.
    resumeCommand: resumePi({
      id: options.id,
      cwd: options.cwd,
      home,
      env: options.env ?? {},
      ...(options.posture ? { posture: options.posture } : {}),
    }),
    notes: [
      ...(taken && force
        ? [reportEntry(
          "pi-running",
          "warning",
          `Pi keeps no lock on ${path}: quit any Pi still running on session ${options.id} before resuming, ` +
            "or it appends its next entries to the file that replaced it",
        )]
        : []),
      ...unconfiguredModel(session, options, home),
    ],
  };
  if (taken && !force) return refusedPlan(plan, refuse.exists(options.id, taken).message);
  return handoffPlan(plan, (commit) => publishPlannedFiles(options.id, files, commit));
}

/** A warning when the model the file continues on is one Pi cannot find in this home: it would resume on another. */
function unconfiguredModel(session: SessionStream, options: RenderOptions, home: string) {
  const named = continuedModel(session, options);
  const model = named ? piModelRef(named, piApis(home)) : undefined;
  if (!model || piConfiguresModel(home, model.provider, model.modelId)) return [];
  return [reportEntry(
    "pi-model-unconfigured",
    "warning",
    `Pi has no model ${model.provider}/${model.modelId} configured (${piModelsFile(home)} or its built-in ` +
      "providers): on resume it continues on its settings' default model instead (defaultProvider, " +
      "defaultModel), else the first it has a key for",
  )];
}
