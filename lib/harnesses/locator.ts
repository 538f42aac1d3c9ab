/**
 * A session kept as rows of a database that holds many (Hermes's `state.db`, OpenCode's `opencode.db`) is named
 * `<database path>#<session id>`: one string that `read` accepts and `list` returns, like a transcript path for
 * the harnesses that keep a file per session.
 */
export function sessionLocator(database: string, id: string): string {
  return `${database}#${id}`;
}

/**
 * Splits a locator; a plain file path (a database or a transcript) has no id. `exists` is asked, not the file
 * system, so that codecs naming their sessions by locator stay pure.
 */
export function parseLocator(path: string, exists: (path: string) => boolean): { file: string; id?: string } {
  if (exists(path)) return { file: path };
  const cut = path.lastIndexOf("#");
  if (cut > 0 && exists(path.slice(0, cut))) return { file: path.slice(0, cut), id: path.slice(cut + 1) };
  return { file: path };
}
