/**
 * The last thing a harness's binary said, for a one-line reason in a warning or an error: its output's last
 * non-blank line, without the colour sequences binaries write even to a pipe (OpenCode's errors are red), so
 * the escaped remainder (every output path escapes what is left) still reads as words.
 */
// deno-lint-ignore no-control-regex -- ESC starts the sequences this removes
const COLOUR = /\u001b\[[0-9;]*m/g;

export function lastWords(output: string): string {
  const lines = output.replace(COLOUR, "").split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line) return line;
  }
  return "";
}
