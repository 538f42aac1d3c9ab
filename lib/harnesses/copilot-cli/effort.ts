/**
 * The reasoning effort a Copilot CLI session runs at, as its events.jsonl records it: the last
 * `session.model_change` of the main agent (`data.reasoningEffort`; 1.0.102 writes one at start-up, with the
 * effort asked with `--reasoning-effort` or null for the model's default, and one at each change). A
 * subagent's changes carry its `agentId` and are its own.
 */
import { copilotEventsFile } from "./home.ts";
import { recordOf } from "../../io/json-line.ts";
import { lastPicked } from "../../io/last-picked.ts";

/** A session folder's name as Copilot makes it: an id printed by the binary is a path part only if it is one. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function storedReasoningEffort(id: string, home: string): string | undefined {
  if (!UUID.test(id)) return undefined;
  const effort = lastPicked(copilotEventsFile(home, id), '"session.model_change"', (event) => {
    if (event.type !== "session.model_change" || event.agentId !== undefined) return undefined;
    const value = recordOf(event.data).reasoningEffort;
    // null: back to the model's default, which has no effort of its own to record.
    return typeof value === "string" || value === null ? value : undefined;
  });
  return effort ?? undefined;
}
