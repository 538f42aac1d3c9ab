/**
 * The `workspace.yaml` Copilot CLI keeps beside a session's events: what its session list shows of it (the
 * name, the Location column from `cwd`) and dates it by. Without it the list shows the session with no
 * location, and a resumed run names it after the first prompt of that run (checked on the binary). Written in
 * the binary's field order, as YAML it writes (the `yaml` package, which Copilot uses too).
 */
import { stringify } from "yaml";
import type { EncodedSummary } from "./encode.ts";

export interface WorkspaceFields {
  id: string;
  cwd: string;
  /** The title chosen for the session, if any: then the session is named by the user. */
  title?: string;
  summary: EncodedSummary;
}

/** The name the session list shows: a chosen title, else the first prompt (Copilot's own default). */
export const workspaceName = ({ title, summary, id }: WorkspaceFields): string =>
  title ?? summary.firstPrompt ?? `Session ${id.slice(0, 8)}`;

export function workspaceText(fields: WorkspaceFields): string {
  const { id, cwd, title, summary } = fields;
  return stringify({
    id,
    cwd,
    client_name: "github/cli",
    name: workspaceName(fields),
    // Named by the user: a title other than the first prompt, which is what Copilot names a session by itself.
    user_named: title !== undefined && title !== summary.firstPrompt,
    summary_count: 0,
    fork_count: 0,
    created_at: summary.startTime,
    updated_at: summary.updatedAt,
  }, { lineWidth: 0 });
}
