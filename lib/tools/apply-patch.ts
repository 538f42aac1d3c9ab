/**
 * Codex's apply_patch format, both ways. Edits become `*** Update File` hunks (removed lines `-`, added lines
 * `+`), a whole-file write becomes `*** Add File`; a patch that is exactly one of those comes back as the same
 * edit or write. Anything else (several files, moves, deletes) has no single Claude/Hermes equivalent.
 */
import type { CanonicalCall, Edit } from "./canonical.ts";

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";

const lines = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));

export function editPatch(path: string, edits: Edit[]): string {
  const hunks = edits.flatMap((
    e,
  ) => ["@@", ...lines(e.oldText).map((l) => `-${l}`), ...lines(e.newText).map((l) => `+${l}`)]);
  return [BEGIN, `*** Update File: ${path}`, ...hunks, END].join("\n");
}

export function addFilePatch(path: string, content: string): string {
  return [BEGIN, `*** Add File: ${path}`, ...lines(content).map((l) => `+${l}`), END].join("\n");
}

/** One file added or updated: the canonical write or edit; otherwise undefined. */
export function parsePatch(patch: string): CanonicalCall | undefined {
  const body = patch.trim().split("\n");
  if (body[0] !== BEGIN || body.at(-1) !== END) return undefined;
  const inner = body.slice(1, -1);
  const header = inner[0] ?? "";
  if (inner.slice(1).some((l) => l.startsWith("*** "))) return undefined;
  const add = /^\*\*\* Add File: (.+)$/.exec(header);
  if (add) {
    if (!inner.slice(1).every((l) => l.startsWith("+"))) return undefined;
    const text = inner.slice(1).map((l) => l.slice(1));
    return { kind: "write", path: add[1]!, content: text.length ? `${text.join("\n")}\n` : "" };
  }
  const update = /^\*\*\* Update File: (.+)$/.exec(header);
  if (!update) return undefined;
  const edits = hunks(inner.slice(1));
  return edits ? { kind: "edit", path: update[1]!, edits } : undefined;
}

/** Each `@@` hunk: context lines belong to both sides, `-` to the old text, `+` to the new. */
function hunks(body: string[]): Edit[] | undefined {
  const out: { old: string[]; new: string[] }[] = [];
  for (const line of body) {
    if (line.startsWith("@@")) {
      out.push({ old: [], new: [] });
      continue;
    }
    const hunk = out.at(-1) ?? (out.push({ old: [], new: [] }), out.at(-1)!);
    const text = line.slice(1);
    if (line.startsWith("-")) hunk.old.push(text);
    else if (line.startsWith("+")) hunk.new.push(text);
    else if (line.startsWith(" ") || line === "") {
      hunk.old.push(text);
      hunk.new.push(text);
    } else return undefined;
  }
  return out.length ? out.map((h) => ({ oldText: h.old.join("\n"), newText: h.new.join("\n") })) : undefined;
}
