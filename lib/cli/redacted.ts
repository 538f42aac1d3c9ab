/** The stderr line of `--redact`: how many secrets a shared transcript lost. */
export function redactedLine(count: number): string {
  return `redacted ${count} secret${count === 1 ? "" : "s"}`;
}
