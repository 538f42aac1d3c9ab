/**
 * How a fitted session's summary is recognised: the first line of its text. Writers put the summary where
 * their harness's own compaction puts one, and readers find it again by this header, so a hop back can put the
 * full history (kept on disk as the compacted thread) back before fitting it anew for the next target.
 */
import type { Message } from "../ir/schema.ts";
import type { SessionStream, ThreadStream } from "../ir/stream.ts";

/** The first line of every summary session-bridge writes (a fixed text: readers match it exactly). */
export const FIT_SUMMARY_HEADER =
  "[session-bridge: summary of the earlier conversation, fitted to the model's window]";

/** The id of the thread that holds the fitted-away messages, verbatim and in order. */
export const FIT_THREAD_ID = "fit";

/** Whether a message is a summary session-bridge wrote when it fitted a session to a window. */
export function isFitSummary(message: Message): boolean {
  if (message.kind !== "summary") return false;
  const first = message.blocks[0];
  return first?.type === "text" && first.text.startsWith(FIT_SUMMARY_HEADER);
}

/**
 * The thread a fitted session keeps its summarized messages in: ours by id while the IR is fresh; read back
 * from a harness, whose reader names its compacted thread itself, the newest compacted one (the one the
 * summary opening the live thread stands for).
 */
export function fitThreadOf(session: Pick<SessionStream, "threads">): ThreadStream | undefined {
  const compacted = session.threads.filter((t) => t.kind === "compacted");
  return compacted.find((t) => t.id === FIT_THREAD_ID) ?? compacted.at(-1);
}
