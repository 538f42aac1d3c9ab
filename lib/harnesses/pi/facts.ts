/**
 * What Pi's session list says of a file, from its entries in file order, whichever branch they are on
 * (`buildSessionInfo`, 0.73.1): its name (the latest `session_info`, an empty one clearing it), the first
 * user message's text. And the last activity as session-bridge dates every session (lib/harnesses/updated.ts):
 * the newest time of any message, tool results included (its own `timestamp` in milliseconds, else its
 * entry's), or of a `custom_message` (the handshake a handoff writes, sent to the model as the user's); Pi's
 * own list counts user and assistant messages only. Shared by the listing and the reader; loads neither.
 */
import { isObject, type Json } from "../../io/json.ts";

export class ListFacts {
  name: string | undefined;
  firstUserText: string | undefined;
  lastActivity: number | undefined;
  messages = 0;

  add(entry: Json): void {
    if (entry.type === "session_info") {
      this.name = typeof entry.name === "string" && entry.name.trim() ? entry.name.trim() : undefined;
    }
    if (entry.type === "custom_message") this.noteTime(Date.parse(String(entry.timestamp)));
    if (entry.type !== "message" || !isObject(entry.message)) return;
    this.messages++;
    const message = entry.message;
    this.noteTime(
      typeof message.timestamp === "number" ? message.timestamp : Date.parse(String(entry.timestamp)),
    );
    if (message.role === "user" && "content" in message && this.firstUserText === undefined) {
      const text = textOf(message.content);
      if (text) this.firstUserText = text;
    }
  }

  private noteTime(ms: number) {
    if (Number.isFinite(ms) && ms > 0) this.lastActivity = Math.max(this.lastActivity ?? 0, ms);
  }
}

/** A message's text as Pi's list reads it: the string, or its text blocks joined by a space. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => (b as Json).text).join(" ");
}
