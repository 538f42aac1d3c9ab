/** `session-bridge completion zsh`: the same rules as bash's, with zsh's own completion functions. */
import type { CompletionModel } from "./model.ts";
import { flagsFunction, positionalFunction, quoted, valueFunction, wordScanLoop } from "./shared.ts";

export function zshCompletion(model: CompletionModel, version: string): string {
  const commands = model.commands.map((c) => quoted(`${c.name}:${c.summary}`)).join("\n    ");
  return `#compdef session-bridge
# zsh completion for session-bridge ${version}, made by \`session-bridge completion zsh\`.
# Load it in ~/.zshrc after compinit:  source <(session-bridge completion zsh)
# (or save it as _session_bridge in a folder on $fpath).
${valueFunction(model)}

${flagsFunction(model)}

${positionalFunction(model)}

_session_bridge() {
  local cur=\${words[CURRENT]} prev="" cmd="" word kind what
  integer i positionals=0
  local -a homes
${wordScanLoop(model, { words: "words", first: 2, cursor: "CURRENT" })}
  if [[ -n $prev ]]; then
    case $(_session_bridge_value "$cmd" "$prev") in
      harness) compadd -- ${model.harnesses.join(" ")} ;;
      dir) _files -/ ;;
      file) _files ;;
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    compadd -- \${=$(_session_bridge_flags "$cmd")}
    return
  fi
  if [[ -z $cmd ]]; then
    local -a commands=(
    ${commands}
    )
    _describe -t commands 'session-bridge command' commands
    return
  fi
  ((positionals == 0)) || return
  what=$(_session_bridge_positional "$cmd")
  case $what in
    session | operation)
      # Session ids and titles from the stores (the home flags typed so far say which), or the handoffs undo
      # can take back, read when asked; a title names a session too, an operation's description does not.
      local -a ids titles
      local id title
      while IFS=$'\\t' read -r id title; do
        ids+=("$id")
        [[ $what == session && -n $title ]] && titles+=("$title")
      done < <("\${words[1]}" completion "--\${what}s" "\${homes[@]}" 2>/dev/null)
      compadd -- "\${ids[@]}"
      compadd -- "\${titles[@]}"
      ;;
    choices\\ *) compadd -- \${=\${what#choices }} ;;
  esac
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _session_bridge "$@"
else
  compdef _session_bridge session-bridge
fi
`;
}
