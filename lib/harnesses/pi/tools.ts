/**
 * Pi's tools (0.73.1) in canonical terms, with the argument names of the parameter schemas its binary declares
 * (`dist/core/tools/`): `bash {command, timeout? (seconds)}`, `read {path, offset? (1-based line), limit?}`,
 * `edit {path, edits: [{oldText, newText}]}` (an older call's top-level `oldText`/`newText` is still taken),
 * `write {path, content}`, and, off by default, `grep {pattern, path?, glob?, ...}`, `find {pattern (glob),
 * path?}`, `ls {path?}`. It has no web, todo or subagent tool: such calls pass through by name. Written calls
 * carry exactly the arguments its own parser requires.
 */
import {
  type CanonicalCall,
  defined,
  type Edit,
  type HarnessCall,
  isObject,
  num,
  str,
  type ToolVocabulary,
} from "../../tools/canonical.ts";
import { shellQuote } from "../../io/shell.ts";

/** The replacements of an edit call: its `edits`, then a legacy top-level pair as Pi appends it. */
function editsOf(input: Record<string, unknown>): Edit[] | undefined {
  const edits: Edit[] = [];
  if (input.edits !== undefined) {
    if (!Array.isArray(input.edits)) return undefined;
    for (const edit of input.edits) {
      const [oldText, newText] = isObject(edit) ? [str(edit.oldText), str(edit.newText)] : [];
      if (oldText === undefined || newText === undefined) return undefined;
      edits.push({ oldText, newText });
    }
  }
  const [oldText, newText] = [str(input.oldText), str(input.newText)];
  if (oldText !== undefined && newText !== undefined) edits.push({ oldText, newText });
  return edits.length ? edits : undefined;
}

const seconds = (ms: number | undefined) => ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000));

export const piTools: ToolVocabulary = {
  toCanonical({ name, input }) {
    if (!isObject(input)) return undefined;
    const path = str(input.path);
    switch (name) {
      case "bash": {
        const command = str(input.command);
        const timeout = num(input.timeout);
        return command === undefined ? undefined : defined({
          kind: "shell",
          command,
          timeoutMs: timeout === undefined ? undefined : timeout * 1000,
        });
      }
      case "read":
        return path === undefined
          ? undefined
          : defined({ kind: "read", path, offset: num(input.offset), limit: num(input.limit) });
      case "write": {
        const content = str(input.content);
        return path === undefined || content === undefined ? undefined : { kind: "write", path, content };
      }
      case "edit": {
        const edits = editsOf(input);
        return path === undefined || !edits ? undefined : { kind: "edit", path, edits };
      }
      case "grep": {
        const pattern = str(input.pattern);
        return pattern === undefined
          ? undefined
          : defined({ kind: "search", pattern, path: str(input.path), glob: str(input.glob) });
      }
      case "find": {
        const pattern = str(input.pattern);
        return pattern === undefined ? undefined : defined({ kind: "list", pattern, path });
      }
      case "ls":
        // A folder's entries: every name in it, as a listing of `*` there.
        return defined({ kind: "list", pattern: "*", path });
      default:
        return undefined;
    }
  },

  fromCanonical(call: CanonicalCall): HarnessCall | undefined {
    switch (call.kind) {
      case "shell": {
        // Pi's bash takes no working folder: a call that named one runs there through the command itself.
        const command = call.workdir ? `cd ${shellQuote(call.workdir)} && ${call.command}` : call.command;
        return { name: "bash", input: defined({ command, timeout: seconds(call.timeoutMs) }) };
      }
      case "read":
        return { name: "read", input: defined({ path: call.path, offset: call.offset, limit: call.limit }) };
      case "write":
        return { name: "write", input: { path: call.path, content: call.content } };
      case "edit": {
        // Pi's edits replace one unique occurrence each: a replace-all has no equivalent.
        if (!call.edits.length || call.edits.some((e) => e.replaceAll)) return undefined;
        return {
          name: "edit",
          input: { path: call.path, edits: call.edits.map(({ oldText, newText }) => ({ oldText, newText })) },
        };
      }
      case "search":
        return { name: "grep", input: defined({ pattern: call.pattern, path: call.path, glob: call.glob }) };
      case "list":
        return { name: "find", input: defined({ pattern: call.pattern, path: call.path }) };
      case "patch":
      case "web_fetch":
      case "web_search":
      case "plan":
      case "subagent":
        return undefined;
    }
  },
};
