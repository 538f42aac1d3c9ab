/**
 * A session as the file `opencode export <id>` prints and `opencode import <file>` reads: `{info, messages:
 * [{info, parts}]}`, the session in OpenCode's API shape, each message's data with its id and `sessionID`, each
 * part's with its id, `sessionID` and `messageID` (1.18.33's export and import commands). The rows are the
 * handoff's own (encode.ts); `import` files the session under the project and directory it is run in.
 *
 * The session's token sums and last time are known once its messages are made, so `messages` is written first
 * and `info` after it: `import` reads the parsed object, not its key order. One message a line, so a long
 * session streams.
 */
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import type { Rendered } from "../../io/rendered.ts";
import { type EncodedMessage, encodeOpenCode, type SessionRow } from "./encode.ts";
import { KNOWN_SCHEMAS } from "./schema-version.ts";
import { chooseModel } from "./register.ts";

/** The project `import` replaces with its own (the export's `projectID` is not kept): the one outside any repository. */
const GLOBAL = { projectId: "global", worktree: "/" };

export async function* renderOpenCode(
  session: SessionStream,
  options: RenderOptions,
): AsyncGenerator<Rendered> {
  const version = options.targetVersion ?? KNOWN_SCHEMAS.at(-1)!.version;
  const model = chooseModel(session, options).ref;
  const encoded = encodeOpenCode(session, options, { ...GLOBAL, version, model });
  yield '{"messages": [';
  let first = true;
  for await (const message of encoded.messages) {
    yield `${first ? "" : ","}${JSON.stringify(exported(message))}`;
    first = false;
  }
  yield "],";
  yield `"info": ${JSON.stringify(sessionInfo(encoded.session()))}}`;
}

function exported({ message, parts }: EncodedMessage) {
  return {
    info: { ...message.data, id: message.id, sessionID: message.session_id },
    parts: parts.map((p) => ({ ...p.data, id: p.id, sessionID: p.session_id, messageID: p.message_id })),
  };
}

/** The session row in the API shape `export` prints (its Session.Info). */
function sessionInfo(row: SessionRow) {
  return {
    id: row.id,
    slug: row.slug,
    projectID: row.project_id,
    directory: row.directory,
    path: row.path,
    title: row.title,
    agent: row.agent,
    model: JSON.parse(row.model),
    version: row.version,
    summary: { additions: row.summary_additions, deletions: row.summary_deletions, files: row.summary_files },
    cost: row.cost,
    tokens: {
      input: row.tokens_input,
      output: row.tokens_output,
      reasoning: row.tokens_reasoning,
      cache: { read: row.tokens_cache_read, write: row.tokens_cache_write },
    },
    time: { created: row.time_created, updated: row.time_updated },
  };
}
