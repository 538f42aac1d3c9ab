/**
 * Pi's codec, pure: session file lines in, IR out (decode.ts; the tree: tree.ts; entries as messages:
 * messages.ts). No file, environment or clock is read here: the store (read.ts) reads the file.
 */
export { decodePi, NO_RESULT, type SessionLines } from "./decode.ts";
