/**
 * OpenCode's tools (1.18.33) in canonical terms, with the argument names of the parameter schemas its binary
 * declares: `bash {command, timeout? (ms), workdir?}`, `read {filePath, offset? (1-based line), limit?}`,
 * `write {filePath, content}`, `edit {filePath, oldString, newString, replaceAll?}`, `apply_patch {patchText}`
 * (offered instead of edit and write to GPT models), `glob {pattern, path?}`, `grep {pattern, path?, include?}`,
 * `webfetch {url, format, timeout?}`, `websearch {query, ...}`, `todowrite {todos: [{content, status,
 * priority}]}`, `task {description, prompt, subagent_type, task_id?, command?}`. Written calls carry exactly the
 * arguments its own parser requires.
 */
import { editPatch, parsePatch } from "../../tools/apply-patch.ts";
import {
  type CanonicalCall,
  defined,
  type HarnessCall,
  isObject,
  num,
  planStatus,
  str,
  type ToolVocabulary,
} from "../../tools/canonical.ts";

/** The subagent OpenCode runs for a task that names no other (its built-in `general` agent). */
const GENERAL_AGENT = "general";

/** The priority a todo gets when the canonical plan says none (todowrite requires one). */
const DEFAULT_PRIORITY = "medium";

export const openCodeTools: ToolVocabulary = {
  toCanonical({ name, input }) {
    if (!isObject(input)) return undefined;
    const filePath = str(input.filePath);
    switch (name) {
      case "bash": {
        const command = str(input.command);
        return command === undefined ? undefined : defined({
          kind: "shell",
          command,
          workdir: str(input.workdir),
          timeoutMs: num(input.timeout),
          description: str(input.description),
        });
      }
      case "read":
        return filePath === undefined
          ? undefined
          : defined({ kind: "read", path: filePath, offset: num(input.offset), limit: num(input.limit) });
      case "write": {
        const content = str(input.content);
        return filePath === undefined || content === undefined
          ? undefined
          : { kind: "write", path: filePath, content };
      }
      case "edit": {
        const [oldText, newText] = [str(input.oldString), str(input.newString)];
        if (filePath === undefined || oldText === undefined || newText === undefined) return undefined;
        const edit = input.replaceAll === true
          ? { oldText, newText, replaceAll: true }
          : { oldText, newText };
        return { kind: "edit", path: filePath, edits: [edit] };
      }
      case "apply_patch": {
        const patch = str(input.patchText);
        return patch === undefined ? undefined : parsePatch(patch);
      }
      case "glob": {
        const pattern = str(input.pattern);
        return pattern === undefined ? undefined : defined({ kind: "list", pattern, path: str(input.path) });
      }
      case "grep": {
        const pattern = str(input.pattern);
        return pattern === undefined
          ? undefined
          : defined({ kind: "search", pattern, path: str(input.path), glob: str(input.include) });
      }
      case "webfetch": {
        const url = str(input.url);
        return url === undefined ? undefined : { kind: "web_fetch", url };
      }
      case "websearch": {
        const query = str(input.query);
        return query === undefined ? undefined : { kind: "web_search", query };
      }
      case "todowrite":
        return !Array.isArray(input.todos) ? undefined : {
          kind: "plan",
          items: input.todos.filter(isObject).map((t) => ({
            text: str(t.content) ?? "",
            status: planStatus(t.status),
          })),
        };
      case "task": {
        const prompt = str(input.prompt);
        // `subagent_type` picks one of its agents; the canonical call carries the task and its short name.
        return prompt === undefined
          ? undefined
          : defined({ kind: "subagent", prompt, description: str(input.description) });
      }
      default:
        return undefined;
    }
  },

  fromCanonical(call: CanonicalCall): HarnessCall | undefined {
    switch (call.kind) {
      case "shell":
        return {
          name: "bash",
          input: defined({ command: call.command, timeout: call.timeoutMs, workdir: call.workdir }),
        };
      case "read":
        return {
          name: "read",
          input: defined({ filePath: call.path, offset: call.offset, limit: call.limit }),
        };
      case "write":
        return { name: "write", input: { filePath: call.path, content: call.content } };
      case "edit": {
        // `edit` makes one replacement a call; several in one call are one patch.
        const [edit] = call.edits;
        if (!edit) return undefined;
        if (call.edits.length > 1) {
          return { name: "apply_patch", input: { patchText: editPatch(call.path, call.edits) } };
        }
        return {
          name: "edit",
          input: defined({
            filePath: call.path,
            oldString: edit.oldText,
            newString: edit.newText,
            replaceAll: edit.replaceAll ? true : undefined,
          }),
        };
      }
      case "search":
        return {
          name: "grep",
          input: defined({ pattern: call.pattern, path: call.path, include: call.glob }),
        };
      case "list":
        return { name: "glob", input: defined({ pattern: call.pattern, path: call.path }) };
      case "web_fetch":
        return { name: "webfetch", input: { url: call.url, format: "markdown" } };
      case "web_search":
        return { name: "websearch", input: { query: call.query } };
      case "plan":
        return {
          name: "todowrite",
          input: {
            todos: call.items.map((i) => ({ content: i.text, status: i.status, priority: DEFAULT_PRIORITY })),
          },
        };
      case "subagent":
        return {
          name: "task",
          input: {
            description: call.description ?? firstWords(call.prompt),
            prompt: call.prompt,
            subagent_type: GENERAL_AGENT,
          },
        };
    }
  },
};

/** A task's required short description when the canonical call has none: its prompt's first few words. */
function firstWords(prompt: string): string {
  return prompt.trim().split(/\s+/, 5).join(" ") || "task";
}
