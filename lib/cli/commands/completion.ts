import type { Command, CommandEntry } from "../command.ts";
import { flag } from "../args.ts";
import { InputError } from "../../errors.ts";
import { VERSION } from "../../version.ts";
import { completionModel } from "../completion/model.ts";
import { bashCompletion } from "../completion/bash.ts";
import { zshCompletion } from "../completion/zsh.ts";
import { fishCompletion } from "../completion/fish.ts";
import { listSessions } from "../../pipeline/list.ts";
import { terminalField } from "../../io/control-characters.ts";
import { pendingOperations } from "../../store/ledger.ts";

const SHELLS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;
type Shell = keyof typeof SHELLS;

/** The completion command over `commands`: the command registry (commands/index.ts), which lists it too. */
export const completionOver = (commands: readonly CommandEntry[]): Command => ({
  usage: "session-bridge completion bash|zsh|fish",
  help: `Prints the shell's completion script: commands, flags, harness names, folders and files where a flag
takes one, and the ids and titles of your sessions wherever a <session> goes (read from the stores when you
press Tab, through --sessions), and the handoffs undo can take back (--operations).
  bash:  source <(session-bridge completion bash)          (in ~/.bashrc)
  zsh:   source <(session-bridge completion zsh)           (in ~/.zshrc, after compinit)
  fish:  session-bridge completion fish > ~/.config/fish/completions/session-bridge.fish
  --sessions     print "id<TAB>title", one line per session in the stores, newest first (what the scripts run)
  --operations   print "operation<TAB>what it did", one line per handoff undo can take back, newest first`,
  // The shell is required unless --sessions or --operations is given, which run() checks.
  arguments: ["[shell]"],
  options: { sessions: { type: "boolean" }, operations: { type: "boolean" } },
  async run(parsed, { registry, homes, bridgeHome, feedback, output }) {
    const { out } = output;
    if (flag(parsed.values, "operations")) {
      if (parsed.positionals.length) throw new InputError("--operations takes no shell");
      for (const e of pendingOperations(bridgeHome).reverse()) {
        // One line each: an id from a store could hold a newline.
        out(
          `${e.op}\t${
            terminalField(`${e.source.harness} ${e.source.id} -> ${e.target.harness} ${e.target.id}`)
          }`,
        );
      }
      return 0;
    }
    if (flag(parsed.values, "sessions")) {
      if (parsed.positionals.length) throw new InputError("--sessions takes no shell");
      const { sessions } = await listSessions({ registry, homes, bridgeHome, feedback });
      out("latest");
      // A word with a control character or a tab could not be typed, and could break the line apart.
      const typeable = (word: string) => terminalField(word) === word;
      for (const s of sessions) {
        if (!typeable(s.id)) continue;
        out(s.title && typeable(s.title) ? `${s.id}\t${s.title}` : s.id);
      }
      return 0;
    }
    const [shell, extra] = parsed.positionals;
    if (shell === undefined) throw new InputError("missing shell: bash, zsh or fish");
    if (extra !== undefined) throw new InputError(`unexpected argument ${JSON.stringify(extra)}`);
    if (!(shell in SHELLS)) {
      throw new InputError(`unknown shell ${JSON.stringify(shell)} (expected bash, zsh or fish)`);
    }
    out(SHELLS[shell as Shell](await completionModel(registry, commands), VERSION).trimEnd());
    return 0;
  },
});
