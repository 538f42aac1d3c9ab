/**
 * Pi's own session list, asked the way a person asks it: `pi -r` opens the picker on the sessions of the folder
 * it runs in ("Current Folder"); its search matches the words of each session's id, name, messages and cwd,
 * and a quoted phrase must appear as typed (0.73.1, session-selector-search.js). Searched for a session's whole
 * id, the picker keeps a row (marked `›`) only when it lists that session; else it says the folder has none.
 * Pi has no listing command outside its TUI.
 */
import { startTmux } from "../../../certify-kit/tmux.ts";

const PICKER_TIMEOUT_MS = 60_000;
const LOADED = (s: string) => s.includes("Resume Session (Current Folder)") && !s.includes("Loading");
const NONE = "No sessions in current folder";

export interface PickerRun {
  bin: string;
  cwd: string;
  env: Record<string, string>;
}

/** Whether a screen shows a row left in the list: a line starting with the picker's `›` (a walk of each line once). */
const rowLeft = (screen: string) => screen.split("\n").some((line) => line.trimStart().startsWith("›"));

/** Whether `pi -r` in `run.cwd` lists the session `id`. */
export async function pickerLists(run: PickerRun, id: string): Promise<boolean> {
  const pane = startTmux({
    command: run.bin,
    args: ["-r"],
    cwd: run.cwd,
    env: { ...run.env, TERM: "xterm-256color" },
  });
  try {
    await pane.waitForScreen(LOADED, "Pi's session picker, loaded", PICKER_TIMEOUT_MS);
    pane.type(`"${id}"`);
    const screen = await pane.waitForScreen(
      (s) => s.includes(id) && (s.includes(NONE) || rowLeft(s)),
      "the picker searched for the session's id",
      PICKER_TIMEOUT_MS,
    );
    return !screen.includes(NONE);
  } finally {
    pane.close();
  }
}
