/**
 * One engine turn as LazyBridge events, emitted as the turn goes: `agent_start` with the task, each tool call
 * and its result or error and each model response (with the turn's usage and cost) as the binary prints them,
 * `agent_finish` with the answer. Payloads pass the session's redactor (the default one unless the session
 * opted out). The session's graph gets the agent and a `uses` edge to each tool it calls.
 * A session that cannot take an event (closed meanwhile) is a warning of the turn, never its failure.
 */
import { randomUUID } from "node:crypto";
import type { LiveEvent } from "../harnesses/types.ts";
import { EventType, type Payload } from "../observe/event-log.ts";
import type { Session } from "../observe/session.ts";
import { usagePayload } from "../observe/replay.ts";

export interface TurnEnd {
  ok: boolean;
  reply: string;
  exitCode: number | null;
  nativeSessionId?: string;
  error?: string;
}

export class ObservedTurn {
  readonly runId = randomUUID();
  readonly #started = Date.now();
  readonly #pending: Promise<void>[] = [];
  /** Tool names by call id, for the result events. */
  readonly #tools = new Map<string, string>();
  #failed = false;

  constructor(
    readonly session: Session,
    readonly agent: { id: string; name: string; model?: string | undefined },
    readonly warnings: string[],
  ) {}

  start(task: string, nativeSessionId: string | undefined): void {
    this.#emit(EventType.AGENT_START, {
      task,
      ...(this.agent.model ? { model: this.agent.model } : {}),
      ...(nativeSessionId ? { native_session_id: nativeSessionId } : {}),
    });
  }

  live(event: LiveEvent): void {
    switch (event.kind) {
      case "tool_call":
        this.#tools.set(event.callId, event.tool);
        this.#useTool(event.tool);
        this.#emit(EventType.TOOL_CALL, {
          tool: event.tool,
          call_id: event.callId,
          arguments: event.arguments,
        });
        return;
      case "tool_result": {
        const tool = this.#tools.get(event.callId);
        this.#emit(event.isError ? EventType.TOOL_ERROR : EventType.TOOL_RESULT, {
          ...(tool ? { tool } : {}),
          call_id: event.callId,
          ...(event.isError ? { error: event.output } : { result: event.output }),
        });
        return;
      }
      case "model_response": {
        const model = event.model ?? this.agent.model;
        this.#emit(EventType.MODEL_RESPONSE, {
          ...(model ? { model } : {}),
          ...(event.content !== undefined ? { content: event.content } : {}),
          ...(event.usage ? usagePayload(model, event.usage, event.costUsd) : {}),
        });
        return;
      }
    }
  }

  /** Resolves once every event of the turn was taken by the session (queued, when it is batched). */
  async finish(end: TurnEnd): Promise<void> {
    this.#emit(EventType.AGENT_FINISH, {
      payload: end.reply,
      ok: end.ok,
      exit_code: end.exitCode,
      latency_ms: Date.now() - this.#started,
      ...(end.nativeSessionId ? { native_session_id: end.nativeSessionId } : {}),
      ...(end.error ? { error: end.error } : {}),
    });
    await Promise.all(this.#pending);
  }

  #useTool(tool: string): void {
    const graph = this.session.graph;
    graph.addTool(tool);
    graph.addEdge({ from: this.agent.id, to: `tool:${tool}`, kind: "uses" });
  }

  #emit(type: EventType, payload: Payload): void {
    if (this.#failed) return;
    try {
      const queued = this.session.emit(type, { agent_name: this.agent.name, ...payload }, this.runId);
      if (queued) this.#pending.push(queued);
    } catch (error) {
      this.#failed = true;
      this.warnings.push(
        `events of this turn not recorded from ${type} on: ${error instanceof Error ? error.message : error}`,
      );
    }
  }
}
