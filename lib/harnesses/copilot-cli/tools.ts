/**
 * Copilot CLI's tools (1.0.102) in canonical terms, with the argument names its binary declares (cli-main.js,
 * and the calls in fixtures/copilot-cli/1.0.102/exec-tools): `bash {command, description?, mode?
 * (sync|async), initial_wait? (s)}`, `view {path, view_range? [first, last] (1-based, -1 to the end)}`,
 * `create {path, file_text}`, `edit {path, old_str, new_str}`, `apply_patch` (offered to some models instead of
 * edit and create: the patch as text), `grep {pattern, paths?, glob?, output_mode?, ...}`, `glob {pattern,
 * path?}`, `web_fetch {url, raw?, max_length?, start_index?}`, `task {description, prompt, agent_type, name?}`
 * (a subagent), and `sql {description, query}` on the session's own database, whose `todos` table is its todo
 * list (status pending, in_progress, done or blocked). Written calls carry exactly the arguments its parser
 * requires.
 */
import { parsePatch } from "../../tools/apply-patch.ts";
import {
  type CanonicalCall,
  defined,
  type HarnessCall,
  isObject,
  type PlanItem,
  str,
  type ToolVocabulary,
} from "../../tools/canonical.ts";

/** The agent a task runs when the canonical call names none: Copilot's own `general-purpose`. */
const GENERAL_AGENT = "general-purpose";

/** Canonical plan statuses as the todos table's CHECK spells them. */
const TODO_STATUS: Record<PlanItem["status"], string> = {
  pending: "pending",
  in_progress: "in_progress",
  completed: "done",
};

export const copilotTools: ToolVocabulary = {
  toCanonical({ name, input }) {
    if (name === "apply_patch") {
      const patch = typeof input === "string" ? input : isObject(input) ? str(input.input) : undefined;
      return patch === undefined ? undefined : parsePatch(patch);
    }
    if (!isObject(input)) return undefined;
    const path = str(input.path);
    switch (name) {
      case "bash": {
        const command = str(input.command);
        return command === undefined
          ? undefined
          : defined({ kind: "shell", command, description: str(input.description) });
      }
      case "view":
        return path === undefined
          ? undefined
          : defined({ kind: "read", path, ...viewRange(input.view_range) });
      case "create": {
        const content = str(input.file_text);
        return path === undefined || content === undefined ? undefined : { kind: "write", path, content };
      }
      case "edit": {
        const [oldText, newText] = [str(input.old_str), str(input.new_str) ?? ""];
        return path === undefined || oldText === undefined
          ? undefined
          : { kind: "edit", path, edits: [{ oldText, newText }] };
      }
      case "grep": {
        const pattern = str(input.pattern);
        return pattern === undefined
          ? undefined
          : defined({ kind: "search", pattern, path: onePath(input.paths), glob: str(input.glob) });
      }
      case "glob": {
        const pattern = str(input.pattern);
        return pattern === undefined ? undefined : defined({ kind: "list", pattern, path });
      }
      case "web_fetch": {
        const url = str(input.url);
        return url === undefined ? undefined : { kind: "web_fetch", url };
      }
      case "task": {
        const prompt = str(input.prompt);
        return prompt === undefined
          ? undefined
          : defined({ kind: "subagent", prompt, description: str(input.description) });
      }
      default:
        // `sql` is any statement on the session's database, a todo list only sometimes: it passes by name.
        return undefined;
    }
  },

  fromCanonical(call: CanonicalCall): HarnessCall | undefined {
    switch (call.kind) {
      case "shell":
        return {
          name: "bash",
          input: { command: call.command, description: call.description ?? firstWords(call.command) },
        };
      case "read":
        return {
          name: "view",
          input: defined({ path: call.path, view_range: rangeOf(call.offset, call.limit) }),
        };
      case "write":
        return { name: "create", input: { path: call.path, file_text: call.content } };
      case "edit": {
        // `edit` replaces one unique occurrence; several edits, or one replacing all, pass by name.
        const [edit] = call.edits;
        if (!edit || call.edits.length > 1 || edit.replaceAll) return undefined;
        return { name: "edit", input: { path: call.path, old_str: edit.oldText, new_str: edit.newText } };
      }
      case "search":
        return { name: "grep", input: defined({ pattern: call.pattern, paths: call.path, glob: call.glob }) };
      case "list":
        return { name: "glob", input: defined({ pattern: call.pattern, path: call.path }) };
      case "web_fetch":
        return { name: "web_fetch", input: { url: call.url } };
      case "plan":
        return call.items.length === 0 ? undefined : {
          name: "sql",
          input: { description: "Update the todo list", query: todoStatement(call.items) },
        };
      case "subagent":
        return {
          name: "task",
          input: {
            description: call.description ?? firstWords(call.prompt),
            prompt: call.prompt,
            agent_type: GENERAL_AGENT,
          },
        };
      case "patch":
      case "web_search":
        return undefined;
    }
  },
};

/** `view_range` [first, last] as an offset and a count of lines; -1 (to the end) has no count. */
function viewRange(range: unknown): { offset?: number; limit?: number } {
  if (!Array.isArray(range) || range.length !== 2) return {};
  const [first, last] = range;
  if (!Number.isInteger(first) || !Number.isInteger(last) || first < 1) return {};
  return last === -1 ? { offset: first } : last >= first ? { offset: first, limit: last - first + 1 } : {};
}

function rangeOf(offset: number | undefined, limit: number | undefined): [number, number] | undefined {
  if (offset === undefined && limit === undefined) return undefined;
  const first = Math.max(1, Math.floor(offset ?? 1));
  return [first, limit === undefined ? -1 : first + Math.max(1, Math.floor(limit)) - 1];
}

/** grep's `paths` is a path or a list of them; the canonical call holds one. */
function onePath(paths: unknown): string | undefined {
  if (typeof paths === "string") return paths;
  return Array.isArray(paths) && paths.length === 1 ? str(paths[0]) : undefined;
}

/** The statement Copilot's agent writes its todo list with: the whole list, replacing what the table held. */
function todoStatement(items: readonly PlanItem[]): string {
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const rows = items.map((item, i) =>
    `(${quote(`t${i + 1}`)}, ${quote(item.text)}, ${quote(TODO_STATUS[item.status])})`
  );
  return `DELETE FROM todo_deps; DELETE FROM todos; INSERT INTO todos (id, title, status) VALUES ${
    rows.join(", ")
  };`;
}

/** A short description for a call whose canonical form has none: the first few words. */
function firstWords(text: string): string {
  return text.trim().split(/\s+/, 5).join(" ") || "task";
}
