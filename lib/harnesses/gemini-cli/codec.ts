/**
 * Gemini CLI's codec, pure: session log lines in, IR out (decode.ts, replaying the log as the CLI does:
 * replay.ts; parts as blocks: parts.ts). No file, environment or clock is read here: the store (read.ts) reads
 * the files. The writing half is the writer's (render).
 */
export { decodeGemini, decodeGeminiDocument, type SessionLines, type SubagentLogs } from "./decode.ts";
