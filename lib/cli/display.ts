/**
 * What this process's output shows: colour on a descriptor that is a terminal, unless the person said not to
 * (`--no-color`, NO_COLOR: https://no-color.org) or forced it (FORCE_COLOR, for a pager or a CI log that
 * shows colour); the width of stdout when it is a terminal. Asked of the terminal when first wanted, so
 * `--version` never asks.
 */
import type { Env } from "./command.ts";
import { type Display, type Output, type Pager, writeAll } from "./output.ts";
import type { Terminal } from "./terminal.ts";

/** The choice the flag and the environment make, before any terminal is asked: off, on, or as the fd is. */
export function colorChoice(env: Env, noColorFlag: boolean): "off" | "on" | "terminal" {
  if (noColorFlag || env.NO_COLOR) return "off";
  const forced = env.FORCE_COLOR;
  if (forced !== undefined && forced !== "") return forced === "0" || forced === "false" ? "off" : "on";
  return env.TERM === "dumb" ? "off" : "terminal";
}

export function processDisplay(env: Env, noColorFlag: boolean, terminal: Terminal): Display {
  const choice = colorChoice(env, noColorFlag);
  return {
    color: (fd) => choice === "on" || (choice === "terminal" && (terminal.isTerminal?.(fd) ?? false)),
    get columns() {
      return terminal.columns;
    },
  };
}

/**
 * $PAGER (default `less -FRX`: quits at once when the text fits the screen, passes colour, leaves the text on
 * the screen), run through the shell as other tools do, since it may hold arguments. An empty PAGER or `cat`
 * means no pager.
 */
export function processPager(env: Env): Pager | undefined {
  const command = env.PAGER === undefined ? "less -FRX" : env.PAGER.trim();
  if (!command || command === "cat") return undefined;
  return async (text) => {
    const { spawn } = await import("node:child_process");
    const pager = spawn(command, { shell: true, stdio: ["pipe", "inherit", "inherit"] });
    // Quitting the pager before the end closes its input: what is left is not wanted.
    pager.stdin.on("error", () => {});
    pager.stdin.end(text);
    const code = await new Promise<number | null>((resolve, reject) => {
      pager.on("error", reject);
      pager.on("close", resolve);
    });
    // The shell found no such pager (it said so on stderr): the text is printed as without one.
    if (code === 127) writeAll(1, text);
  };
}

/**
 * Help text wrapped at a terminal's width (loaded only then: `--help` in a pipe pays nothing for it and
 * prints the same text on any terminal size).
 */
export async function fittedHelp(text: string, output: Output): Promise<string> {
  const columns = output.columns;
  return columns === undefined ? text : (await import("./width.ts")).wrapHelp(text, columns);
}
