/**
 * A session kept as rows of a database that holds many (Hermes's `state.db`, OpenCode's `opencode.db`) is named
 * `<database path>#<session id>`: one string that `read` accepts and `list` returns, like a transcript path for
 * the harnesses that keep a file per session.
 */
export function sessionLocator(database: string, id: string): string {
  return `${database}#${id}`;
}
