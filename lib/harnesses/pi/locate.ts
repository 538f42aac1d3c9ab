/**
 * Where Pi keeps sessions in its store (`<agent folder>/sessions/`): one folder per working directory, each
 * holding `<time>_<id>.jsonl` files. The session list's "All" scope reads exactly these (`listAll`, 0.73.1).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { byCodeUnit } from "../../io/compare.ts";
import { assertNotLinkLoop, directoryIfPresent } from "../../io/file-kind.ts";

/** Every session file of the store, in name order (a project folder at a time). */
export function sessionFiles(store: string): string[] {
  const out: string[] = [];
  for (const project of entries(store)) {
    if (!project.isDirectory()) continue;
    const folder = join(store, project.name);
    for (const file of entries(folder)) {
      if (file.isFile() && file.name.endsWith(".jsonl")) out.push(join(folder, file.name));
    }
  }
  return out;
}

/** A folder's entries in name order (none when it is absent); a link that loops there fails naming it. */
function entries(dir: string) {
  if (!directoryIfPresent(dir)) return [];
  const list = readdirSync(dir, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name));
  for (const entry of list) assertNotLinkLoop(dir, entry);
  return list;
}
