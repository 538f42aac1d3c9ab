/**
 * The toy harness's format, as a pure codec (records in, IR out; IR in, records out; no file system). A
 * session is one JSON-lines file: a header `{"toy": 1, "id", "cwd", "title", "model"}`, then one line per
 * message, holding its role, kind and blocks.
 */
import type { Block, Message, Role, Session } from "../../../lib/ir/schema.ts";
import type { RenderOptions } from "../../../lib/harnesses/types.ts";
import { emptySession } from "../../../lib/ir/session.ts";
import { INTERRUPTED_RESULT } from "../../../lib/handshake/handshake.ts";
import { isObject } from "../../../lib/io/json.ts";

export const TOY = "toy";

export interface ToyHeader {
  toy: 1;
  id: string;
  cwd?: string;
  title?: string;
  model?: string;
}

export interface ToyMessage {
  role: Role;
  kind: Message["kind"];
  blocks: Block[];
}

export const isToyHeader = (value: unknown): value is ToyHeader =>
  isObject(value) && value.toy === 1 && typeof value.id === "string";

/** The session a file's records hold; `path` is where they were read from. */
export function toSession(records: unknown[], path: string): Session {
  const [header, ...lines] = records;
  if (!isToyHeader(header)) throw new Error(`${path}: not a toy session (no header line)`);
  const session = emptySession({
    harness: TOY,
    id: header.id,
    path,
    models: header.model ? [header.model] : [],
    ...(header.cwd ? { cwd: header.cwd } : {}),
    ...(header.title ? { title: header.title } : {}),
  });
  let parent: string | null = null;
  lines.forEach((line, i) => {
    const m = line as ToyMessage;
    const uid = `${header.id}:${i + 1}`;
    session.messages.push({ uid, parentUid: parent, role: m.role, kind: m.kind, blocks: m.blocks });
    parent = uid;
  });
  const answered = new Set(
    session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "tool_result" ? [b.callId] : []))),
  );
  for (const m of session.messages) {
    for (const b of m.blocks) {
      if (b.type === "tool_call" && !answered.has(b.id)) {
        session.pending.openToolCalls.push({ callId: b.id, name: b.name, messageUid: m.uid });
      }
    }
  }
  return session;
}

/** The records of `session` rendered as a toy session with `options`' id, cwd, title, model and handshake. */
export function fromSession(session: Session, options: RenderOptions): unknown[] {
  const header: ToyHeader = {
    toy: 1,
    id: options.id,
    cwd: options.cwd,
    ...(options.title ? { title: options.title } : {}),
    ...(options.model ? { model: options.model } : {}),
  };
  const messages: ToyMessage[] = session.messages.map((m) => ({
    role: m.role,
    kind: m.kind,
    blocks: m.blocks,
  }));
  if (options.stubOpenCalls) {
    for (const call of session.pending.openToolCalls) {
      messages.push({
        role: "tool",
        kind: "turn",
        blocks: [{
          type: "tool_result",
          callId: call.callId,
          isError: true,
          content: [{ type: "text", text: INTERRUPTED_RESULT }],
        }],
      });
    }
  }
  if (options.handshake) {
    messages.push({ role: "user", kind: "turn", blocks: [{ type: "text", text: options.handshake }] });
  }
  return [header, ...messages];
}
