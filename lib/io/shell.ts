/**
 * Commands we print for the user to paste into a POSIX shell. Every word is quoted, so a path with spaces,
 * quotes or `$` runs as written. A word holding a control character (a newline, ESC, a bidi override: a
 * directory's name may have any) is written in ANSI-C quotes (`$'...'`, bash, zsh, ksh and POSIX.1-2024 sh)
 * with each such character as the `\xHH` escapes of its UTF-8 bytes: the line stays inert on the screen and
 * one line, and the shell reads the very name back.
 */
import { escapeControls } from "./control-characters.ts";

export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(word)) return word;
  // Inside $'...' a backslash starts an escape and a quote ends the word: both are escaped first.
  const ansiC = escapeControls(word.replace(/[\\']/g, "\\$&"), true, byteEscapes);
  return ansiC.changed ? `$'${ansiC.text}'` : `'${word.replace(/'/g, `'\\''`)}'`;
}

const utf8 = new TextEncoder();

const byteEscapes = (c: string): string =>
  [...utf8.encode(c)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("");

/**
 * `cd <dir> && [NAME=value ...] <argv>`: a command that works pasted into any new terminal, whatever
 * directory it starts in and whatever that shell's environment holds.
 */
export function commandLine(cwd: string, env: Record<string, string>, argv: string[]): string {
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${shellQuote(value)}`);
  return `cd ${shellQuote(cwd)} && ${[...assignments, ...argv.map(shellQuote)].join(" ")}`;
}
