/**
 * Commands we print for the user to paste into a POSIX shell. Every word is quoted, so a path with spaces,
 * quotes or `$` runs as written.
 */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `cd <dir> && [NAME=value ...] <argv>`: a command that works pasted into any new terminal, whatever
 * directory it starts in and whatever that shell's environment holds.
 */
export function commandLine(cwd: string, env: Record<string, string>, argv: string[]): string {
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${shellQuote(value)}`);
  return `cd ${shellQuote(cwd)} && ${[...assignments, ...argv.map(shellQuote)].join(" ")}`;
}
