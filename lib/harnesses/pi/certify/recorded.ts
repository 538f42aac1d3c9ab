/**
 * What a running Pi has recorded so far, for the certify driver to wait on and take answers from: the session
 * files in its agent folder (`sessions/<project folder>/<time>_<id>.jsonl`), and a file's entries as far as they
 * are written. Pi writes nothing until a session's first assistant message exists, then appends one entry a
 * line; the line being written may be cut. The session reader proper is the harness's store.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLine, type JsonRecord, recordOf } from "../../../io/json-line.ts";
import { assistantText } from "./run.ts";
import { piSessions } from "../home.ts";

/** Every session file under `<agent>/sessions/*` (each project's folder), in no particular order. */
export function sessionFiles(agent: string): string[] {
  const root = piSessions(agent);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) =>
    readdirSync(join(root, d.name)).filter((f) => f.endsWith(".jsonl")).map((f) => join(root, d.name, f))
  );
}

/** One conversation message of a session file, as much of it as a seeding waits on. */
export interface RecordedMessage {
  role: string;
  /** A user's words, or an assistant's text blocks (reasoning and tool calls left out). */
  text: string;
  /** An assistant's `stopReason` (`stop`, `toolUse`, `aborted`, ...); empty for the others. */
  stopReason: string;
  /** An assistant's bash calls' commands. */
  commands: string[];
}

/** The id a session file's header (its first line) names. */
export function sessionIdOf(path: string): string | undefined {
  const header = entries(path)[0];
  return header?.type === "session" && typeof header.id === "string" ? header.id : undefined;
}

/** The conversation messages of a session file in the order written (a seeding's session has no branches). */
export function recordedMessages(path: string): RecordedMessage[] {
  return entries(path).filter((e) => e.type === "message").map((e) => {
    const message = recordOf(e.message);
    const role = String(message.role);
    const content = Array.isArray(message.content) ? message.content.map(recordOf) : [];
    return {
      role,
      text: role === "user" ? userText(message.content, content) : assistantText(message),
      stopReason: typeof message.stopReason === "string" ? message.stopReason : "",
      commands: content.flatMap((b) => {
        const args = recordOf(b.arguments);
        return b.type === "toolCall" && b.name === "bash" && typeof args.command === "string"
          ? [args.command]
          : [];
      }),
    };
  });
}

/** A user message's words: its content as a string, or its text blocks. */
function userText(raw: unknown, blocks: JsonRecord[]): string {
  if (typeof raw === "string") return raw;
  return blocks.filter((b) => b.type === "text" && typeof b.text === "string").map((b) => b.text).join("");
}

function entries(path: string): JsonRecord[] {
  if (!existsSync(path)) return [];
  // A line that is no JSON object is the one Pi is writing right now.
  return readFileSync(path, "utf8").split("\n").flatMap((line): JsonRecord[] => {
    const entry = jsonLine(line);
    return entry ? [entry] : [];
  });
}
