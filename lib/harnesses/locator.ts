import { existsSync } from "node:fs";

/**
 * A session kept as rows of a database that holds many (Hermes's `state.db`, OpenCode's `opencode.db`) is named
 * `<database path>#<session id>`: one string that `read` accepts and `list` returns, like a transcript path for
 * the harnesses that keep a file per session.
 */
export function sessionLocator(database: string, id: string): string {
  return `${database}#${id}`;
}

/** Splits a locator; a plain file path (a database or a transcript) has no id. */
export function parseLocator(path: string): { file: string; id?: string } {
  if (existsSync(path)) return { file: path };
  const cut = path.lastIndexOf("#");
  if (cut > 0 && existsSync(path.slice(0, cut))) return { file: path.slice(0, cut), id: path.slice(cut + 1) };
  return { file: path };
}
