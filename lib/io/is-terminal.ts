/**
 * Whether a descriptor is a terminal, without loading node:tty where it cannot be one. node:tty costs a
 * compiled binary's start-up about 4 ms (it loads Bun's stream modules); a terminal is a character device, so
 * a pipe or a file (a script's output, a redirect) is told by fstat, and node:tty is loaded only for a
 * character device (a terminal, or one such as /dev/null) to ask isatty.
 */
import { fstatSync } from "node:fs";

export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    // A closed descriptor: isatty answers no for it too.
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}
