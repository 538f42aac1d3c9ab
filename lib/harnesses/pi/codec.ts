/**
 * Pi's codec, pure: session file lines in, IR out (decode.ts; the tree: tree.ts; entries as messages:
 * messages.ts), and the IR out as the entries 0.73.1 writes (encode.ts). No file, environment or clock is read
 * here: the store reads the file (read.ts) and names the settings' model and thinking level (render.ts).
 */
export { decodePi, type SessionLines } from "./decode.ts";
export { encodePi } from "./encode.ts";
