/**
 * What Gemini CLI 0.61.0 records beside each tool call for its own display (`recordToolCalls` enriches every
 * call from the tool's registry entry): the tool's display name, whether its output is shown as Markdown, and
 * the one-line description of the invocation. Read in the bundle's tool classes; a tool it does not know is
 * recorded under its own name, not as Markdown, as the binary does for a tool missing from its registry.
 */
import { isObject } from "../../io/json.ts";

interface Display {
  displayName: string;
  markdown: boolean;
  /** The argument the invocation's description shows (the command, the file, the pattern). */
  describedBy?: string;
}

const DISPLAY: Readonly<Record<string, Display>> = {
  run_shell_command: { displayName: "Shell", markdown: false, describedBy: "command" },
  read_file: { displayName: "ReadFile", markdown: true, describedBy: "file_path" },
  write_file: { displayName: "WriteFile", markdown: true, describedBy: "file_path" },
  replace: { displayName: "Edit", markdown: true, describedBy: "file_path" },
  glob: { displayName: "FindFiles", markdown: true, describedBy: "pattern" },
  grep_search: { displayName: "SearchText", markdown: true, describedBy: "pattern" },
  list_directory: { displayName: "ReadFolder", markdown: true, describedBy: "dir_path" },
  web_fetch: { displayName: "WebFetch", markdown: true, describedBy: "prompt" },
  google_web_search: { displayName: "GoogleSearch", markdown: true, describedBy: "query" },
  write_todos: { displayName: "WriteTodos", markdown: true },
  invoke_agent: { displayName: "Invoke Subagent", markdown: true, describedBy: "prompt" },
};

export interface ToolDisplay {
  displayName: string;
  description: string;
  renderOutputAsMarkdown: boolean;
}

export function toolDisplay(name: string, args: unknown): ToolDisplay {
  const known = Object.hasOwn(DISPLAY, name) ? DISPLAY[name] : undefined;
  const described = known?.describedBy && isObject(args) ? args[known.describedBy] : undefined;
  return {
    displayName: known?.displayName ?? name,
    description: typeof described === "string" ? described : "",
    renderOutputAsMarkdown: known?.markdown ?? false,
  };
}
