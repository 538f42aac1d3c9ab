/** `session-bridge completion bash`. */
import type { CompletionModel } from "./model.ts";
import { flagsFunction, positionalFunction, quoted, valueFunction, wordScanLoop } from "./shared.ts";

export function bashCompletion(model: CompletionModel, version: string): string {
  return `# bash completion for session-bridge ${version}, made by \`session-bridge completion bash\`.
# Load it in ~/.bashrc:  source <(session-bridge completion bash)
${valueFunction(model)}

${flagsFunction(model)}

${positionalFunction(model)}

_session_bridge() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=""
  local cmd="" positionals=0 i word kind
  local -a homes=()
  COMPREPLY=()
${wordScanLoop(model, { words: "COMP_WORDS", first: 1, cursor: "COMP_CWORD" })}
  if [[ -n $prev ]]; then
    case $(_session_bridge_value "$cmd" "$prev") in
      harness) mapfile -t COMPREPLY < <(compgen -W ${quoted(model.harnesses.join(" "))} -- "$cur") ;;
      dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
      file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_session_bridge_flags "$cmd")" -- "$cur")
    return 0
  fi
  if [[ -z $cmd ]]; then
    mapfile -t COMPREPLY < <(compgen -W ${quoted(model.commands.map((c) => c.name).join(" "))} -- "$cur")
    return 0
  fi
  ((positionals == 0)) || return 0
  local what
  what=$(_session_bridge_positional "$cmd")
  case $what in
    session | operation)
      # Session ids and titles from the stores (the home flags typed so far say which), or the handoffs undo
      # can take back, read when asked; a title names a session too, an operation's description does not.
      local id title
      while IFS=$'\\t' read -r id title; do
        [[ $id == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$id")")
        [[ $what == session && -n $title && $title == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$title")")
      done < <("\${COMP_WORDS[0]}" completion "--\${what}s" "\${homes[@]}" 2>/dev/null)
      ;;
    choices\\ *) mapfile -t COMPREPLY < <(compgen -W "\${what#choices }" -- "$cur") ;;
  esac
  return 0
}
complete -F _session_bridge session-bridge
`;
}
