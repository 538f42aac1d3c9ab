/** OpenCode's codec: rows in, the IR out (decode.ts), and back (encode.ts); no file, database, environment or clock. */
export { decodeOpenCode } from "./decode.ts";
export { encodeOpenCode } from "./encode.ts";
