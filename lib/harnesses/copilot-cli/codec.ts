/**
 * Copilot CLI's codec: a session's event lines in, the IR out (decode.ts), and back as the events 1.0.102 writes
 * (encode.ts); no file, database, environment or clock.
 */
export { decodeCopilot } from "./decode.ts";
export { encodeCopilot } from "./encode.ts";
