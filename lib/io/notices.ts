/**
 * Progress a user should see while a command waits (a store locked by a running harness). Lower layers say
 * what is happening; the CLI decides where it goes (stderr), and library callers may ignore it.
 */
let listener: (line: string) => void = () => {};

export function onNotice(handler: (line: string) => void): void {
  listener = handler;
}

export function notice(line: string): void {
  listener(line);
}
