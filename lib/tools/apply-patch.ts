/**
 * Codex's apply_patch format, both ways, and Hermes's V4A dialect of it (its `patch` tool's patch mode).
 * Edits become `*** Update File` hunks (removed lines `-`, added lines `+`), a whole-file write becomes
 * `*** Add File`; a patch that is exactly one of those comes back as the same edit or write, and any other
 * patch (several files, deletes, moves) as the canonical patch. The dialects differ only in moves: Codex says
 * `*** Move to: <new>` under the file's `*** Update File`, Hermes a `*** Move File: <old> -> <new>` of its own,
 * applied in order after the file's hunks.
 */
import type { CanonicalCall, Edit, FileChange } from "./canonical.ts";

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
/** Codex's marker that a hunk ends at the end of the file: nothing to the change itself. */
const END_OF_FILE = "*** End of File";

const lines = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));

const hunkLines = (edits: Edit[]) =>
  edits.flatMap((
    e,
  ) => ["@@", ...lines(e.oldText).map((l) => `-${l}`), ...lines(e.newText).map((l) => `+${l}`)]);

const addLines = (path: string, content: string) => [
  `*** Add File: ${path}`,
  ...lines(content).map((l) => `+${l}`),
];

/** A patch in the apply_patch grammar. */
export function patchText(files: FileChange[]): string {
  const body = files.flatMap((f) => {
    switch (f.op) {
      case "add":
        return addLines(f.path, f.content);
      case "delete":
        return [`*** Delete File: ${f.path}`];
      case "update":
        return [
          `*** Update File: ${f.path}`,
          ...(f.moveTo === undefined ? [] : [`*** Move to: ${f.moveTo}`]),
          ...hunkLines(f.edits),
        ];
    }
  });
  return [BEGIN, ...body, END].join("\n");
}

/** A patch in Hermes's V4A dialect: a moved file's hunks apply where it is, then it moves. */
export function v4aPatch(files: FileChange[]): string {
  const body = files.flatMap((f) => {
    switch (f.op) {
      case "add":
        return addLines(f.path, f.content);
      case "delete":
        return [`*** Delete File: ${f.path}`];
      case "update":
        return [
          // Hermes refuses an update with no hunks: a bare move is its Move File alone.
          ...(f.edits.length ? [`*** Update File: ${f.path}`, ...hunkLines(f.edits)] : []),
          ...(f.moveTo === undefined ? [] : [`*** Move File: ${f.path} -> ${f.moveTo}`]),
        ];
    }
  });
  return [BEGIN, ...body, END].join("\n");
}

export const editPatch = (path: string, edits: Edit[]): string => patchText([{ op: "update", path, edits }]);

export const addFilePatch = (path: string, content: string): string =>
  patchText([{ op: "add", path, content }]);

/** One file added or updated in place: the canonical write or edit; any other patch: the canonical patch. */
export function parsePatch(patch: string): CanonicalCall | undefined {
  const files = parsePatchFiles(patch);
  if (!files?.length) return undefined;
  const [only] = files;
  if (files.length === 1 && only!.op === "add") {
    return { kind: "write", path: only!.path, content: only!.content };
  }
  if (files.length === 1 && only!.op === "update" && only!.moveTo === undefined && only!.edits.length) {
    return { kind: "edit", path: only!.path, edits: only!.edits };
  }
  return { kind: "patch", files };
}

const HEADERS = ["Add File", "Delete File", "Update File", "Move to", "Move File"] as const;

/** A file header line's kind and path (`*** Update File: src/a.ts`); undefined for any other line. */
function header(line: string): { kind: typeof HEADERS[number]; path: string } | undefined {
  for (const kind of HEADERS) {
    const prefix = `*** ${kind}: `;
    if (line.startsWith(prefix) && line.length > prefix.length) {
      return { kind, path: line.slice(prefix.length) };
    }
  }
  return undefined;
}

/** Hermes's `old -> new` of a Move File line, split at its first arrow. */
function moveOf(text: string): { from: string; to: string } | undefined {
  const at = text.indexOf(" -> ");
  const [from, to] = [text.slice(0, at), text.slice(at + 4)];
  return at > 0 && to ? { from, to } : undefined;
}

/** A file's section of a patch: its header and the lines under it. */
interface Section {
  change: FileChange;
  body: string[];
}

/** The files a patch changes, in its order, in either dialect; undefined when it is not a patch. */
function parsePatchFiles(patch: string): FileChange[] | undefined {
  const body = patch.trim().split("\n");
  if (body[0] !== BEGIN || body.at(-1) !== END) return undefined;
  const sections: Section[] = [];
  for (const line of body.slice(1, -1)) {
    if (line === END_OF_FILE) continue;
    const head = header(line);
    if (!head) {
      const section = sections.at(-1);
      if (!section) return undefined;
      section.body.push(line);
      continue;
    }
    const { kind, path } = head;
    const last = sections.at(-1)?.change;
    if (kind === "Move to") {
      if (last?.op !== "update" || last.moveTo !== undefined) return undefined;
      last.moveTo = path;
    } else if (kind === "Move File") {
      const move = moveOf(path);
      if (!move) return undefined;
      // Hermes moves a file after its hunks: one change with the update before it.
      if (last?.op === "update" && last.path === move.from && last.moveTo === undefined) {
        last.moveTo = move.to;
      } else {sections.push({
          change: { op: "update", path: move.from, moveTo: move.to, edits: [] },
          body: [],
        });}
    } else {
      const change: FileChange = kind === "Add File"
        ? { op: "add", path, content: "" }
        : kind === "Delete File"
        ? { op: "delete", path }
        : { op: "update", path, edits: [] };
      sections.push({ change, body: [] });
    }
  }
  const files: FileChange[] = [];
  for (const { change, body } of sections) {
    const complete = withBody(change, body);
    if (!complete) return undefined;
    files.push(complete);
  }
  return files;
}

/** The change with what its lines say: an added file's content, an update's edits. */
function withBody(change: FileChange, body: string[]): FileChange | undefined {
  switch (change.op) {
    case "add": {
      if (!body.every((l) => l.startsWith("+"))) return undefined;
      const text = body.map((l) => l.slice(1));
      return { ...change, content: text.length ? `${text.join("\n")}\n` : "" };
    }
    case "delete":
      return body.length ? undefined : change;
    case "update": {
      if (!body.length) return change.moveTo === undefined ? undefined : change;
      const edits = hunks(body);
      return edits && { ...change, edits };
    }
  }
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
