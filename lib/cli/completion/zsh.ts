/** `session-bridge completion zsh`: the same rules as bash's, with zsh's own completion functions. */
import type { CompletionModel } from "./model.ts";
import { flagsFunction, homeFlagWords, positionalFunction, quoted, valueFunction } from "./shared.ts";

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
  # The command is the first word that is neither a flag nor a flag's value; global flags may come before it.
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    case $word in
      --*=*) ;;
      -*)
        kind=$(_session_bridge_value "$cmd" "$word")
        if [[ -n $kind ]]; then
          case $word in ${homeFlagWords(model).join(" | ")}) homes+=("$word" "\${words[i + 1]}") ;; esac
          if ((i + 1 == CURRENT)); then prev=$word; fi
          ((i++))
        fi ;;
      *) if [[ -z $cmd ]]; then cmd=$word; else ((positionals++)); fi ;;
    esac
  done
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
