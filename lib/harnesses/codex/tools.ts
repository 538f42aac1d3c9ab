/**
 * Codex's tools (0.147 to 0.169) in canonical terms. Codex edits files with the freeform `apply_patch` tool and
 * does everything else through the shell, so reads, searches and listings become shell commands.
 */
import { addFilePatch, editPatch, parsePatch, patchText } from "../../tools/apply-patch.ts";
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
import { shellQuote } from "../../io/shell.ts";

/**
 * A shell command as one command line: `["bash", "-lc", "<script>"]` is how Codex wraps a command line, any
 * other argv is quoted word by word, and a string is already a command line.
 */
function commandLine(command: unknown): string | undefined {
  if (typeof command === "string") return command.trim() ? command : undefined;
  const argv = Array.isArray(command) ? command.filter((a): a is string => typeof a === "string") : [];
  if (!argv.length) return undefined;
  return argv.length === 3 && /sh$/.test(argv[0]!) && argv[1] === "-lc"
    ? argv[2]!
    : argv.map(shellQuote).join(" ");
}

export const codexTools: ToolVocabulary = {
  textInput: true,

  toCanonical({ name, input }) {
    if (name === "apply_patch") {
      const patch = typeof input === "string"
        ? input
        : isObject(input)
        ? str(input.input) ?? str(input.patch)
        : undefined;
      return patch === undefined ? undefined : parsePatch(patch);
    }
    if (!isObject(input)) return undefined;
    switch (name) {
      case "exec_command":
        return str(input.cmd) === undefined
          ? undefined
          : defined({ kind: "shell", command: input.cmd as string, workdir: str(input.workdir) });
      // The legacy shell tools: `shell` / `container.exec` take an argv, the `local_shell_call` item an exec
      // action (read as a `local_shell` call), `shell_command` a command line.
      case "shell":
      case "container.exec":
      case "local_shell":
      case "shell_command": {
        const command = commandLine(input.command);
        if (command === undefined) return undefined;
        return defined({
          kind: "shell",
          command,
          workdir: str(input.workdir) ?? str(input.working_directory),
          timeoutMs: num(input.timeout_ms),
        });
      }
      case "update_plan":
        return !Array.isArray(input.plan) ? undefined : {
          kind: "plan",
          items: input.plan.filter(isObject).map((p) => ({
            text: str(p.step) ?? "",
            status: planStatus(p.status),
          })),
        };
      default:
        return undefined;
    }
  },

  fromCanonical(call: CanonicalCall): HarnessCall | undefined {
    switch (call.kind) {
      case "shell":
        return { name: "exec_command", input: defined({ cmd: call.command, workdir: call.workdir }) };
      case "read": {
        const from = call.offset ?? 1;
        const range = call.limit ? `${from},${from + call.limit - 1}p` : `${from},$p`;
        return { name: "exec_command", input: { cmd: `sed -n '${range}' ${shellQuote(call.path)}` } };
      }
      case "write":
        return { name: "apply_patch", input: addFilePatch(call.path, call.content) };
      case "edit":
        return { name: "apply_patch", input: editPatch(call.path, call.edits) };
      case "patch":
        return { name: "apply_patch", input: patchText(call.files) };
      case "search":
        return {
          name: "exec_command",
          input: {
            cmd: [
              "rg",
              "-n",
              ...(call.glob ? ["-g", shellQuote(call.glob)] : []),
              shellQuote(call.pattern),
              ...(call.path ? [shellQuote(call.path)] : []),
            ].join(" "),
          },
        };
      case "list":
        return {
          name: "exec_command",
          input: {
            cmd: `rg --files -g ${shellQuote(call.pattern)}${call.path ? ` ${shellQuote(call.path)}` : ""}`,
          },
        };
      case "plan":
        return {
          name: "update_plan",
          input: { plan: call.items.map((i) => ({ step: i.text, status: i.status })) },
        };
      case "web_fetch":
      case "web_search":
      case "subagent":
        return undefined;
    }
  },
};
