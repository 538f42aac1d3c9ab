/**
 * Gemini CLI's tools (0.61.0) in canonical terms, with the argument names of their declarations in its bundle
 * (`run_shell_command {command, description?, dir_path?}`, `read_file {file_path, start_line?, end_line?}` with
 * 1-based inclusive lines, `replace {file_path, instruction, old_string, new_string, allow_multiple?}`, ...).
 * Written calls carry exactly the arguments its own parser requires.
 */
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

/** `web_fetch` takes no URL argument: the URLs are in its prompt. The first one is the canonical url. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/;

/** The subagent Gemini CLI runs for a task that names no other (its built-in `generalist`). */
const GENERAL_AGENT = "generalist";

export const geminiTools: ToolVocabulary = {
  toCanonical({ name, input }) {
    if (!isObject(input)) return undefined;
    switch (name) {
      case "run_shell_command": {
        const command = str(input.command);
        return command === undefined ? undefined : defined({
          kind: "shell",
          command,
          workdir: str(input.dir_path),
          description: str(input.description),
        });
      }
      case "read_file": {
        const path = str(input.file_path);
        if (path === undefined) return undefined;
        const start = num(input.start_line);
        const end = num(input.end_line);
        const from = start ?? 1;
        return defined({
          kind: "read",
          path,
          offset: start,
          limit: end !== undefined && end >= from ? end - from + 1 : undefined,
        });
      }
      case "write_file": {
        const [path, content] = [str(input.file_path), str(input.content)];
        return path === undefined || content === undefined ? undefined : { kind: "write", path, content };
      }
      case "replace": {
        const [path, oldText, newText] = [str(input.file_path), str(input.old_string), str(input.new_string)];
        if (path === undefined || oldText === undefined || newText === undefined) return undefined;
        const edit = input.allow_multiple === true
          ? { oldText, newText, replaceAll: true }
          : { oldText, newText };
        return { kind: "edit", path, edits: [edit] };
      }
      case "grep_search": {
        const pattern = str(input.pattern);
        return pattern === undefined
          ? undefined
          : defined({ kind: "search", pattern, path: str(input.dir_path), glob: str(input.include_pattern) });
      }
      case "glob": {
        const pattern = str(input.pattern);
        return pattern === undefined
          ? undefined
          : defined({ kind: "list", pattern, path: str(input.dir_path) });
      }
      case "list_directory": {
        const path = str(input.dir_path);
        return path === undefined ? undefined : { kind: "list", pattern: "*", path };
      }
      case "web_fetch": {
        const prompt = str(input.prompt);
        const url = prompt === undefined ? undefined : URL_IN_TEXT.exec(prompt)?.[0];
        return prompt === undefined || url === undefined ? undefined : { kind: "web_fetch", url, prompt };
      }
      case "google_web_search": {
        const query = str(input.query);
        return query === undefined ? undefined : { kind: "web_search", query };
      }
      case "write_todos":
        return !Array.isArray(input.todos) ? undefined : {
          kind: "plan",
          items: input.todos.filter(isObject).map((t) => ({
            text: str(t.description) ?? "",
            status: planStatus(t.status),
          })),
        };
      case "invoke_agent": {
        const prompt = str(input.prompt);
        // `agent_name` picks one of its agents; the canonical call carries the task alone.
        return prompt === undefined ? undefined : { kind: "subagent", prompt };
      }
      default:
        return undefined;
    }
  },

  fromCanonical(call: CanonicalCall): HarnessCall | undefined {
    switch (call.kind) {
      case "shell":
        return {
          name: "run_shell_command",
          input: defined({ command: call.command, description: call.description, dir_path: call.workdir }),
        };
      case "read": {
        const start = call.offset ?? (call.limit ? 1 : undefined);
        const end = start !== undefined && call.limit ? start + call.limit - 1 : undefined;
        return {
          name: "read_file",
          input: defined({ file_path: call.path, start_line: start, end_line: end }),
        };
      }
      case "write":
        return { name: "write_file", input: { file_path: call.path, content: call.content } };
      case "edit": {
        // `replace` makes one replacement a call; a several-edit call has no single Gemini call.
        const [edit] = call.edits;
        if (!edit || call.edits.length !== 1) return undefined;
        return {
          name: "replace",
          input: defined({
            file_path: call.path,
            // Required by its declaration: what the change is for, in words.
            instruction: `Replace the given text in ${call.path}.`,
            old_string: edit.oldText,
            new_string: edit.newText,
            allow_multiple: edit.replaceAll ? true : undefined,
          }),
        };
      }
      case "search":
        return {
          name: "grep_search",
          input: defined({ pattern: call.pattern, dir_path: call.path, include_pattern: call.glob }),
        };
      case "list":
        return { name: "glob", input: defined({ pattern: call.pattern, dir_path: call.path }) };
      case "web_fetch":
        return {
          name: "web_fetch",
          input: {
            prompt: call.prompt?.includes(call.url) ? call.prompt : `${call.prompt ?? "Fetch"} ${call.url}`,
          },
        };
      case "web_search":
        return { name: "google_web_search", input: { query: call.query } };
      case "plan":
        return {
          name: "write_todos",
          input: { todos: call.items.map((i) => ({ description: i.text, status: i.status })) },
        };
      // No one call changes several files, deletes or moves one: the patch passes through by name.
      case "patch":
        return undefined;
      case "subagent":
        return { name: "invoke_agent", input: { agent_name: GENERAL_AGENT, prompt: call.prompt } };
    }
  },
};
