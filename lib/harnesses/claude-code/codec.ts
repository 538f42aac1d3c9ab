/**
 * Claude Code's codec, pure: transcript records in, IR out (decode.ts); IR in, transcript lines out (write.ts),
 * for the Claude Code version the store detected. No file, database, environment or clock is read here: the
 * store (store.ts) reads the records, finds the target version and passes both in.
 */
export {
  decodeClaude,
  decodeClaudeStreamed,
  type TranscriptLines,
  type TranscriptRecords,
} from "./decode.ts";
export { copyRecords, encodeClaude, isHandshakeRecord } from "./write.ts";
