/**
 * Progress a user should see while a command waits (a store locked by a running harness). Lower layers say
 * what is happening; the front end decides where it goes (the CLI: stderr; the TUI: its status line), and
 * library callers may ignore it.
 */
let listener: (line: string) => void = () => {};

/** Installs where notices go; returns where they went, for a caller that takes them for a while to put back. */
export function onNotice(handler: (line: string) => void): (line: string) => void {
  const previous = listener;
  listener = handler;
  return previous;
}

export function notice(line: string): void {
  listener(line);
}
