import type { Command } from "../command.ts";
import { InputError } from "../../errors.ts";
import { handoffCommandLine } from "../replay.ts";
import type { HandoffReplay } from "../../pipeline/handoff.ts";

export const tui: Command = {
  usage: "session-bridge tui",
  help:
    `Opens the full-screen terminal UI: find a session in any store, read it, hand it off (plan, then confirm)
and undo. Also what \`session-bridge\` with no command opens on a terminal. Press ? inside for every key.`,
  arguments: [],
  options: {},
  drawsScreen: true,
  async run(_parsed, context) {
    const { err, out } = context.output;
    if (!context.terminal.interactive) {
      throw new InputError(
        "the TUI needs a terminal on stdin and stdout (use list, show and handoff in scripts)",
      );
    }
    const warnings: string[] = [];
    const tuiContext = {
      registry: context.registry,
      homes: context.homes,
      bridgeHome: context.bridgeHome,
      env: context.env,
      targetVersions: context.targetVersions,
      limits: context.limits,
      // What the first listing says before the screen is up (a listing cache it could not keep) is printed with
      // the warnings once the TUI has closed; the screen, once drawn, shows the rest on its status line.
      feedback: { notice: (line: string) => void warnings.push(`session-bridge: ${line}`) },
      cwd: process.cwd(),
      now: () => new Date(),
      warn: (line: string) => void warnings.push(line),
      commandLine: (replay: HandoffReplay) => handoffCommandLine(replay, context.registry),
    };
    // The stores are read from now on, while Ink and React load (here only: start-up and every other command
    // pay nothing for them) and draw the first screen.
    const listings = (await import("../../tui/data.ts")).startListing(tuiContext);
    const { runTui } = await import("../../tui/app.tsx");
    // NO_COLOR (https://no-color.org), read from the environment the entry point read: no colour on screen.
    const made = await runTui(tuiContext, listings, { colors: !context.env.NO_COLOR });
    for (const line of warnings) err(line);
    // Left on the normal screen after the TUI closes, so each resume command stays in the scrollback to copy.
    for (const done of made) {
      out(`handed off ${done.source.harness} ${done.source.id} -> ${done.target.harness} ${done.target.id}`);
      out(`resume with:\n  ${done.target.resumeCommand}`);
      out(`undo with:\n  session-bridge undo ${done.op}`);
    }
    return 0;
  },
};
