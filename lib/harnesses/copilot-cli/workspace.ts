/**
 * A session folder's `workspace.yaml`, as Copilot CLI 1.0.102 writes it: `id`, `cwd`, `name` (the first prompt,
 * or the name the user gave: `user_named`), `summary_count`, `fork_count`, `created_at`, `updated_at`. Read
 * with YAML's core schema, as it is written (times stay strings). It only names and dates the session: one that
 * is absent or does not parse leaves the events to say it.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { regularFileIfPresent } from "../../io/file-kind.ts";
import { isObject, optStr } from "../../io/json.ts";

export interface Workspace {
  cwd?: string;
  name?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** The workspace a file says, or an empty one for a file that is absent, unreadable or no mapping. */
export function readWorkspace(path: string): Workspace {
  let value: unknown;
  try {
    if (!regularFileIfPresent(path)) return {};
    // maxAliasCount 0: a file naming anchors it never needs is no workspace Copilot wrote.
    value = parse(readFileSync(path, "utf8"), { prettyErrors: false, maxAliasCount: 0 });
  } catch {
    return {};
  }
  if (!isObject(value)) return {};
  const workspace: Workspace = {};
  const cwd = optStr(value.cwd);
  const name = optStr(value.name);
  const createdAt = optStr(value.created_at);
  const updatedAt = optStr(value.updated_at);
  if (cwd) workspace.cwd = cwd;
  if (name) workspace.name = name;
  if (createdAt) workspace.createdAt = createdAt;
  if (updatedAt) workspace.updatedAt = updatedAt;
  return workspace;
}
