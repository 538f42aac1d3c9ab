import type { Command } from "../command.ts";
import { InputError } from "../../errors.ts";
import { err, out } from "../output.ts";
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
    if (!context.terminal.interactive) {
      throw new InputError(
        "the TUI needs a terminal on stdin and stdout (use list, show and handoff in scripts)",
      );
    }
    // NO_COLOR (https://no-color.org): Ink's colour library decides its level once, when it loads, from
    // FORCE_COLOR; set before the import below, colours degrade to none (bold and inverse stay). The one write
    // to process.env under lib/, kept on purpose: Ink takes no colour option to pass instead (its Text reads the
    // module-level chalk), and it is made only here, on a terminal, where the TUI is all this process does.
    if (context.env.NO_COLOR) process.env.FORCE_COLOR = "0";
    const warnings: string[] = [];
    const tuiContext = {
      registry: context.registry,
      homes: context.homes,
      bridgeHome: context.bridgeHome,
      env: context.env,
      targetVersions: context.targetVersions,
      limits: context.limits,
      cwd: process.cwd(),
      now: () => new Date(),
      warn: (line: string) => void warnings.push(line),
      commandLine: (replay: HandoffReplay) => handoffCommandLine(replay, context.registry),
    };
    // The stores are read from now on, while Ink and React load (here only: start-up and every other command
    // pay nothing for them) and draw the first screen.
    const listings = (await import("../../tui/data.ts")).startListing(tuiContext);
    const { runTui } = await import("../../tui/app.tsx");
    const made = await runTui(tuiContext, listings);
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
