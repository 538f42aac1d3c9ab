/** A locator (`<database>#<session id>`, lib/store/locator.ts) split, by what is on disk. */
import { existsSync } from "node:fs";

/** Splits a locator; a plain file path (a database or a transcript) has no id. */
export function parseLocator(path: string): { file: string; id?: string } {
  if (existsSync(path)) return { file: path };
  const cut = path.lastIndexOf("#");
  if (cut > 0 && existsSync(path.slice(0, cut))) return { file: path.slice(0, cut), id: path.slice(cut + 1) };
  return { file: path };
}
