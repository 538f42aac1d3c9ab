/** Hermes Agent's tools (0.19) in canonical terms. */
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
import { parsePatch, v4aPatch } from "../../tools/apply-patch.ts";

export const hermesTools: ToolVocabulary = {
  toCanonical({ name, input }) {
    if (!isObject(input)) return undefined;
    const path = str(input.path);
    switch (name) {
      case "terminal": {
        const seconds = num(input.timeout);
        return str(input.command) === undefined ? undefined : defined({
          kind: "shell",
          command: input.command as string,
          workdir: str(input.workdir),
          timeoutMs: seconds && seconds * 1000,
        });
      }
      case "read_file":
        return path === undefined
          ? undefined
          : defined({ kind: "read", path, offset: num(input.offset), limit: num(input.limit) });
      case "write_file":
        return path === undefined || str(input.content) === undefined
          ? undefined
          : { kind: "write", path, content: input.content as string };
      case "patch":
        if (input.mode === "patch" && str(input.patch)) return parsePatch(input.patch as string);
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
      case "search_files":
        if (str(input.pattern) === undefined) return undefined;
        return input.target === "files"
          ? defined({ kind: "list", pattern: input.pattern as string, path })
          : defined({ kind: "search", pattern: input.pattern as string, path, glob: str(input.file_glob) });
      case "todo":
        return !Array.isArray(input.todos) ? undefined : {
          kind: "plan",
          items: input.todos.filter(isObject).map((t) => ({
            text: str(t.content) ?? "",
            status: planStatus(t.status),
          })),
        };
      case "delegate_task":
        return str(input.goal) === undefined
          ? undefined
          : defined({ kind: "subagent", prompt: input.goal as string, description: str(input.context) });
      case "web_search":
        return str(input.query) === undefined
          ? undefined
          : { kind: "web_search", query: input.query as string };
      case "web_extract":
        return Array.isArray(input.urls) && typeof input.urls[0] === "string"
          ? { kind: "web_fetch", url: input.urls[0] }
          : undefined;
      default:
        return undefined;
    }
  },

  fromCanonical(call: CanonicalCall): HarnessCall | undefined {
    switch (call.kind) {
      case "shell":
        return {
          name: "terminal",
          input: defined({
            command: call.command,
            workdir: call.workdir,
            timeout: call.timeoutMs && Math.ceil(call.timeoutMs / 1000),
          }),
        };
      case "read":
        return {
          name: "read_file",
          input: defined({ path: call.path, offset: call.offset, limit: call.limit }),
        };
      case "write":
        return { name: "write_file", input: { path: call.path, content: call.content } };
      case "edit":
        // Several edits are one call only in patch mode (V4A, which has no replace-all).
        if (call.edits.length !== 1) {
          return patchCall(v4aPatch([{ op: "update", path: call.path, edits: call.edits }]));
        }
        return {
          name: "patch",
          input: defined({
            mode: "replace",
            path: call.path,
            old_string: call.edits[0]!.oldText,
            new_string: call.edits[0]!.newText,
            replace_all: call.edits[0]!.replaceAll,
          }),
        };
      case "patch":
        return patchCall(v4aPatch(call.files));
      case "search":
        return {
          name: "search_files",
          input: defined({ pattern: call.pattern, target: "content", path: call.path, file_glob: call.glob }),
        };
      case "list":
        return {
          name: "search_files",
          input: defined({ pattern: call.pattern, target: "files", path: call.path }),
        };
      case "plan":
        return {
          name: "todo",
          input: {
            todos: call.items.map((i, n) => ({ id: String(n + 1), content: i.text, status: i.status })),
          },
        };
      case "subagent":
        return { name: "delegate_task", input: defined({ goal: call.prompt, context: call.description }) };
      case "web_search":
        return { name: "web_search", input: { query: call.query } };
      case "web_fetch":
        return { name: "web_extract", input: { urls: [call.url] } };
    }
  },
};

/** Hermes's `patch` tool in patch mode: a V4A patch of any number of files. */
const patchCall = (patch: string): HarnessCall => ({ name: "patch", input: { mode: "patch", patch } });
