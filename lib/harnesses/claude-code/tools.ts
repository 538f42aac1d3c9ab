/** Claude Code's tools (names and arguments as the 2.1.328 binary offers them) in canonical terms. */
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

export const claudeTools: ToolVocabulary = {
  toCanonical({ name, input }) {
    if (!isObject(input)) return undefined;
    const path = str(input.file_path);
    switch (name) {
      case "Bash":
        return str(input.command) === undefined ? undefined : defined({
          kind: "shell",
          command: input.command as string,
          timeoutMs: num(input.timeout),
          description: str(input.description),
        });
      case "Read":
        return path === undefined
          ? undefined
          : defined({ kind: "read", path, offset: num(input.offset), limit: num(input.limit) });
      case "Write":
        return path === undefined || str(input.content) === undefined
          ? undefined
          : { kind: "write", path, content: input.content as string };
      case "Edit":
        return path === undefined || str(input.old_string) === undefined ||
            str(input.new_string) === undefined
          ? undefined
          : {
            kind: "edit",
            path,
            edits: [
              defined({
                oldText: input.old_string as string,
                newText: input.new_string as string,
                replaceAll: input.replace_all === true || undefined,
              }),
            ],
          };
      case "MultiEdit":
        return path === undefined || !Array.isArray(input.edits) ? undefined : {
          kind: "edit",
          path,
          edits: input.edits.filter(isObject).map((e) =>
            defined({
              oldText: str(e.old_string) ?? "",
              newText: str(e.new_string) ?? "",
              replaceAll: e.replace_all === true || undefined,
            })
          ),
        };
      case "Grep":
        return str(input.pattern) === undefined ? undefined : defined({
          kind: "search",
          pattern: input.pattern as string,
          path: str(input.path),
          glob: str(input.glob),
        });
      case "Glob":
        return str(input.pattern) === undefined
          ? undefined
          : defined({ kind: "list", pattern: input.pattern as string, path: str(input.path) });
      case "WebFetch":
        return str(input.url) === undefined
          ? undefined
          : defined({ kind: "web_fetch", url: input.url as string, prompt: str(input.prompt) });
      case "WebSearch":
        return str(input.query) === undefined
          ? undefined
          : { kind: "web_search", query: input.query as string };
      case "TodoWrite":
        return !Array.isArray(input.todos) ? undefined : {
          kind: "plan",
          items: input.todos.filter(isObject).map((t) => ({
            text: str(t.content) ?? "",
            status: planStatus(t.status),
          })),
        };
      case "Task":
      case "Agent":
        return str(input.prompt) === undefined ? undefined : defined({
          kind: "subagent",
          prompt: input.prompt as string,
          description: str(input.description),
        });
      default:
        return undefined;
    }
  },

  fromCanonical(call: CanonicalCall): HarnessCall | undefined {
    switch (call.kind) {
      case "shell":
        return {
          name: "Bash",
          input: defined({ command: call.command, timeout: call.timeoutMs, description: call.description }),
        };
      case "read":
        return {
          name: "Read",
          input: defined({ file_path: call.path, offset: call.offset, limit: call.limit }),
        };
      case "write":
        return { name: "Write", input: { file_path: call.path, content: call.content } };
      case "edit":
        if (call.edits.length === 1) {
          const [e] = call.edits;
          return {
            name: "Edit",
            input: defined({
              file_path: call.path,
              old_string: e!.oldText,
              new_string: e!.newText,
              replace_all: e!.replaceAll,
            }),
          };
        }
        return {
          name: "MultiEdit",
          input: {
            file_path: call.path,
            edits: call.edits.map((e) =>
              defined({ old_string: e.oldText, new_string: e.newText, replace_all: e.replaceAll })
            ),
          },
        };
      case "search":
        return { name: "Grep", input: defined({ pattern: call.pattern, path: call.path, glob: call.glob }) };
      case "list":
        return { name: "Glob", input: defined({ pattern: call.pattern, path: call.path }) };
      case "web_fetch":
        return {
          name: "WebFetch",
          input: defined({ url: call.url, prompt: call.prompt ?? "Summarize the page." }),
        };
      case "web_search":
        return { name: "WebSearch", input: { query: call.query } };
      case "plan":
        return {
          name: "TodoWrite",
          input: {
            todos: call.items.map((i) => ({ content: i.text, status: i.status, activeForm: i.text })),
          },
        };
      // No one call changes several files, deletes or moves one: the patch passes through by name.
      case "patch":
        return undefined;
      case "subagent":
        return {
          name: "Agent",
          input: defined({ description: call.description ?? "Subtask", prompt: call.prompt }),
        };
    }
  },
};
