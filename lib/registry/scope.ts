/**
 * A registry scope as LazyBridge computes it (`Path(scope).resolve().as_posix()`, Python's non-strict
 * realpath): symlinks resolved as far as the path exists, the rest appended, `..` applied to what is resolved
 * so far, relative paths taken from `cwd`, no trailing slash, `~` a plain name; on Windows backslashes are
 * slashes, a drive letter starts a full path, and the whole is lower-cased (`C:\Work\` is `c:/work`). Both
 * tools must agree on it to the byte, or the same folder would be two scopes.
 */
import { lstatSync, readlinkSync } from "node:fs";
import { posix } from "node:path";
import process from "node:process";
import { InputError } from "../errors.ts";
import { pyBlank } from "./python-json.ts";

export function normalizeScope(
  scope: string,
  cwd: string = process.cwd(),
  platform: string = process.platform,
): string {
  if (pyBlank(scope)) throw new InputError("scope must be a non-empty string (normally the engine's cwd)");
  if (scope.includes("\0")) throw new InputError("a scope cannot contain a NUL character");
  const windows = platform === "win32";
  // On Windows Python's as_posix() turns every backslash into a slash, and a drive letter starts a full path.
  const [text, base] = windows ? [scope.replaceAll("\\", "/"), cwd.replaceAll("\\", "/")] : [scope, cwd];
  const absolute = posix.isAbsolute(text) || (windows && /^[A-Za-z]:(?:\/|$)/.test(text));
  const seen = new Map<string, string | undefined>();
  // Python resolves a relative path from its working folder, which getcwd reports already resolved.
  const [path, resolved] = joinRealpath("", absolute ? text : `${base}/${text}`, seen);
  if (!resolved) throw new InputError(`symlink loop in scope ${JSON.stringify(scope)}`);
  const normal = posix.normalize(path);
  // Trailing slashes, each run of slashes tried once (the look-behind), not from each of its slashes.
  const trimmed = normal.length > 1 ? normal.replace(/(?<!\/)\/+$/, "") : normal;
  if (!windows) return trimmed;
  // A drive's root keeps its slash (`c:/`), as Python writes it.
  return (/^[A-Za-z]:$/.test(trimmed) ? `${trimmed}/` : trimmed).toLowerCase();
}

/** posixpath._joinrealpath: `[path, true]`, or `[path, false]` when a symlink loop stopped it. */
function joinRealpath(
  start: string,
  rest: string,
  seen: Map<string, string | undefined>,
): [string, boolean] {
  let path = start;
  if (rest.startsWith("/")) {
    rest = rest.slice(1);
    path = "/";
  }
  while (rest) {
    const slash = rest.indexOf("/");
    const name = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? "" : rest.slice(slash + 1);
    if (!name || name === ".") continue;
    if (name === "..") {
      if (path) {
        const parent = splitHead(path);
        const tail = path.slice(path.lastIndexOf("/") + 1);
        path = tail === ".." ? posix.join(parent, "..", "..") : parent;
      } else path = "..";
      continue;
    }
    const next = path ? posix.join(path, name) : name;
    if (!isSymlink(next)) {
      path = next;
      continue;
    }
    if (seen.has(next)) {
      const known = seen.get(next);
      if (known !== undefined) {
        path = known;
        continue;
      }
      return [posix.join(next, rest), false];
    }
    seen.set(next, undefined);
    const [target, ok] = joinRealpath(path, readlinkSync(next, "utf8"), seen);
    if (!ok) return [posix.join(target, rest), false];
    path = target;
    seen.set(next, path);
  }
  return [path, true];
}

/** posixpath.split's head: the part before the last slash, its trailing slashes dropped unless it is all slashes. */
function splitHead(path: string): string {
  const head = path.slice(0, path.lastIndexOf("/") + 1);
  return head && !/^\/+$/.test(head) ? head.replace(/(?<!\/)\/+$/, "") : head;
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
