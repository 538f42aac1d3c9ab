/**
 * Engines: one turn at a time through a harness's real binary, non-interactively, with LazyBridge's alias
 * rules so a name keeps pointing at the conversation:
 * - a known alias adopts its native id; an unknown one starts a fresh, durable conversation;
 * - an explicit id wins and the alias is re-pointed at it;
 * - the alias is bound as soon as the binary announces an id, so a failed or interrupted turn stays named;
 * - when a resumed turn ends in a new id (Claude Code may move on), the alias follows it;
 * - a registry that cannot be written warns and never fails the turn.
 * Beyond LazyBridge, where the harness allows: a new conversation's id is chosen here (a fresh UUID) and the
 * alias bound to it before the first turn (`prepare()`), and the effort the harness stored is read back after
 * each turn and recorded with the alias.
 * Beyond LazyBridge: an alias bound only for another harness's kind in this folder is that conversation,
 * so it is first handed off to this engine's harness (reported) and bound, one name, one conversation.
 */
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { EngineSpec, ForgetCommand, Harness, Homes } from "../harnesses/types.ts";
import { builtinRegistry, type Registry } from "../harnesses/registry.ts";
import { homeOf, resolveHomes } from "../harnesses/homes.ts";
import { InputError } from "../errors.ts";
import { handoff } from "../pipeline/handoff.ts";
import { aliasBindings } from "../aliases/named.ts";
import { defaultSessionRegistry, isAlias, type SessionRegistry } from "../registry/registry.ts";
import { inTurn } from "./turn-queue.ts";
import { ObservedTurn } from "./observed-turn.ts";
import { lastWords } from "./last-words.ts";
import type { Session as ObserveSession } from "../observe/session.ts";

export interface EngineOptions {
  /** The harness executable (an absolute path, or a name found on `env.PATH`). */
  bin: string;
  /** The folder the turn runs in, and whose scope the alias lives in. */
  cwd: string;
  /** The child's whole environment (nothing else is inherited). */
  env: Record<string, string>;
  /** The conversation's name in LazyBridge's registry. */
  alias?: string;
  /** The native id to continue; wins over the alias, which is re-pointed at it. */
  sessionId?: string;
  model?: string;
  /** The reasoning effort, for harnesses that take one (recorded with the alias, as LazyBridge does). */
  effort?: string;
  /**
   * False: each turn is a conversation the harness does not keep (for harnesses that allow it), so there is
   * nothing to resume or name. Default true.
   */
  persistSession?: boolean;
  /** Default: the process-wide default registry. */
  registry?: SessionRegistry;
  /** Where the stores are, for handing a conversation named for another harness over first. */
  stores?: { registry?: Registry; homes: Homes; bridgeHome: string; recovered?: boolean };
  /** Default: 30 minutes. */
  timeoutMs?: number;
  /**
   * The event session each turn's events go to as they happen (observed-turn.ts), redacted by its redactor (the
   * default one unless it opted out); the engine joins its graph as an agent, with the tools it calls.
   */
  session?: ObserveSession;
  /** The agent's name in events and in the graph; default the alias, else the harness's name. */
  name?: string;
}

export interface HandedOver {
  from: { harness: string; id: string };
  to: { harness: string; id: string };
  /** The undo operation of the handoff. */
  op: string;
}

export interface TurnOutcome {
  ok: boolean;
  /** The id the conversation has after the turn (none if the binary never named one). */
  sessionId?: string;
  reply: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stderr: string;
  /** The conversation the alias named for another harness, handed to this one before the turn. */
  handedOver?: HandedOver;
  /**
   * The reasoning effort the conversation runs at: what the harness recorded in its store after the turn (its
   * configuration's, where none was asked), else the one asked.
   */
  effort?: string;
  /** Registry reads or writes that failed (the turn went ahead). */
  warnings: string[];
}

export class HarnessEngine {
  /** The conversation this engine continues; after each turn, the id it ended in. */
  sessionId: string | undefined;
  readonly #options: EngineOptions;
  readonly #registry: SessionRegistry;
  #lastBound: string | undefined;
  /** `sessionId` was chosen here, for a conversation the harness has not started yet ("session-id"). */
  #unstarted = false;
  /** What `prepare()` met, reported with the next turn's outcome. */
  #prepared: { warnings: string[]; handedOver?: HandedOver } | undefined;
  #spec: Promise<EngineSpec> | undefined;
  /** The effort recorded with the alias: the one asked, until the harness says what it ran with. */
  #effort: string | undefined;
  /** This engine as an agent of its event session's graph. */
  readonly #agent: { id: string; name: string };
  /** This engine's own queue key: its turns never overlap. */
  readonly #ownTurns = `engine\u0000${randomUUID()}`;

  constructor(readonly harness: Harness, options: EngineOptions) {
    if (!harness.integrations.engine) throw new InputError(`${harness.name} has no engine`);
    if (options.alias !== undefined && !isAlias(options.alias)) {
      throw new InputError(
        `invalid session alias ${
          JSON.stringify(options.alias)
        }: a letter, then letters, digits, '_', '.' or '-' (max 64)`,
      );
    }
    if (
      options.persistSession === false && (options.alias !== undefined || options.sessionId !== undefined)
    ) {
      throw new InputError(
        "a conversation the harness does not keep (persistSession: false) has no name or id",
      );
    }
    this.#options = options;
    this.#registry = options.registry ?? defaultSessionRegistry();
    this.sessionId = options.sessionId;
    this.#effort = options.effort;
    const name = options.name ?? options.alias ?? harness.name;
    this.#agent = options.session?.registerAgent({ name, engine: this }) ?? { id: name, name };
  }

  /**
   * Runs one turn; the outcome says how it ended (a failed turn is an outcome, not an exception). Turns on this
   * engine, on its alias and on its conversation's id run one at a time in this process (turn-queue.ts): a
   * turn queued behind the one that created a new name's conversation continues that conversation.
   */
  run(prompt: string): Promise<TurnOutcome> {
    return this.#settled(async (settled) =>
      await this.#underIdTurns(() => this.#turn(prompt, settled.warnings, settled.handedOver))
    );
  }

  /**
   * Settles the conversation the next turn runs on, before any turn: the one the alias names (adopted, or
   * handed over from another harness), else, where the harness lets the caller name a new conversation (Claude
   * Code, Gemini CLI, Copilot CLI: `--session-id`), a fresh UUID, to which the alias is bound at once. Returns
   * `sessionId`: undefined when the harness names the conversation only as the turn runs (the others). What
   * it met (registry warnings, a handover) is reported with the next turn's outcome. `run()` does the same.
   */
  prepare(): Promise<string | undefined> {
    return this.#settled((settled) => {
      this.#prepared = settled;
      return Promise.resolve(this.sessionId);
    });
  }

  /** Queued as a turn (on this engine, then on its alias): the conversation settled, then `body`. */
  #settled<T>(body: (settled: { warnings: string[]; handedOver?: HandedOver }) => Promise<T>): Promise<T> {
    return inTurn(this.#ownTurns, async () => {
      const alias = this.#options.alias;
      const kind = this.harness.integrations.registryKind;
      const earlier = this.#prepared;
      this.#prepared = undefined;
      const warnings = [...earlier?.warnings ?? []];
      const settle = async () => {
        const handedOver = alias === undefined ? undefined : await this.#adoptAlias(warnings);
        await this.#chooseId(warnings);
        const over = handedOver ?? earlier?.handedOver;
        return await body({ warnings, ...(over ? { handedOver: over } : {}) });
      };
      if (alias === undefined) return await settle();
      const scope = this.#registry.scopeOf(this.#options.cwd);
      return await inTurn(
        `alias\u0000${this.#registry.path}\u0000${kind}\u0000${scope}\u0000${alias}`,
        settle,
      );
    });
  }

  /**
   * A conversation not yet named, of a harness that takes the id a new one is to have: a fresh UUID, bound to
   * the alias before the harness runs (so the name is known even if the first turn never gets that far).
   */
  async #chooseId(warnings: string[]): Promise<void> {
    if (this.sessionId !== undefined || this.#options.persistSession === false) return;
    if (!(await this.#engineSpec()).supports?.includes("session-id")) return;
    this.sessionId = randomUUID();
    this.#unstarted = true;
    if (this.#options.alias !== undefined) await this.#bind(this.sessionId, warnings);
  }

  #engineSpec(): Promise<EngineSpec> {
    this.#spec ??= this.harness.integrations.engine!();
    return this.#spec;
  }

  /** Queued behind other engines' turns on the same conversation, once there is one. */
  #underIdTurns(turn: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
    if (this.sessionId === undefined) return turn();
    return inTurn(`id\u0000${this.harness.name}\u0000${this.sessionId}`, turn);
  }

  /**
   * Inside the alias's turn: an engine with no conversation yet adopts the one the name has now (bound by a
   * turn queued ahead, by another process or by LazyBridge), or the one it names for another harness, handed
   * over; an explicit id wins and the alias is re-pointed at it before the turn.
   */
  async #adoptAlias(warnings: string[]): Promise<HandedOver | undefined> {
    this.#lastBound = undefined;
    let handedOver: HandedOver | undefined;
    if (this.sessionId === undefined) {
      this.sessionId = await this.#knownId(warnings);
      if (this.sessionId === undefined) {
        handedOver = await this.#handOverNamed(warnings);
        this.sessionId = handedOver?.to.id;
      }
    }
    if (this.sessionId !== undefined) await this.#bind(this.sessionId, warnings);
    return handedOver;
  }

  async #turn(prompt: string, warnings: string[], handedOver?: HandedOver): Promise<TurnOutcome> {
    const spec = await this.#engineSpec();
    const ephemeral = this.#options.persistSession === false;
    if (this.#options.effort !== undefined && !spec.supports?.includes("effort")) {
      throw new InputError(`${this.harness.name} takes no reasoning effort`);
    }
    const bytes = spec.promptBytes === undefined ? 0 : Buffer.byteLength(prompt);
    if (spec.promptBytes !== undefined && bytes > spec.promptBytes) {
      // Spawned, the system would refuse it (E2BIG), said as a binary that cannot be run.
      throw new InputError(
        `${this.harness.name} takes its prompt as one argument, of at most ${
          spec.promptBytes.toLocaleString("en-US")
        } bytes: this one is ${bytes.toLocaleString("en-US")}`,
      );
    }
    // Not kept: by the binary's own flag, else deleted by its own command once the turn has ended.
    const noFlag = ephemeral && !spec.supports?.includes("ephemeral");
    if (noFlag && !spec.forget) throw new InputError(`${this.harness.name} keeps every conversation`);
    const forget = noFlag ? spec.forget : undefined;
    const pending: Promise<void>[] = [];
    let seen: string | undefined;
    const learn = (id: string) => {
      seen = id;
      if (this.#options.alias !== undefined) pending.push(this.#bind(id, warnings));
    };
    const observed = this.#options.session &&
      new ObservedTurn(this.#options.session, { ...this.#agent, model: this.model }, warnings);
    const read = observed && spec.liveEvents?.();
    observed?.start(prompt, this.sessionId);
    const turn = {
      prompt,
      ...(this.sessionId ? { [this.#unstarted ? "start" : "resume"]: this.sessionId } : {}),
      ...(this.#options.model ? { model: this.#options.model } : {}),
      ...(this.#options.effort ? { effort: this.#options.effort } : {}),
      ...(ephemeral && !forget ? { ephemeral } : {}),
    };
    let result: TurnResult;
    try {
      result = await runTurn(
        this.#options.bin,
        spec.args(turn),
        spec.input?.(turn),
        this.#options,
        (line, stream) => {
          const id = spec.idFrom(line, stream);
          if (id !== undefined && id !== seen) learn(id);
          if (read) { for (const event of read(line, stream)) observed.live(event); }
        },
      );
    } catch (error) {
      await observed?.finish({ ok: false, reply: "", exitCode: null, error: messageOf(error) });
      throw error;
    }
    await Promise.all(pending);
    if (forget) await this.#forget(forget, seen, warnings);
    // A conversation the harness does not keep is not continued: the next turn starts afresh.
    if (seen !== undefined && !ephemeral) this.sessionId = seen;
    // Once the harness has named it, it is there to resume; until then the chosen id still starts it.
    if (seen !== undefined) this.#unstarted = false;
    const endedIn = ephemeral ? seen : this.sessionId;
    if (endedIn && !ephemeral) await this.#learnEffort(spec, endedIn, warnings);
    const ok = result.code === 0 && !result.timedOut;
    const reply = spec.replyFrom(result.stdout, result.stderr);
    // A binary whose output holds only the answer: the answer is the one model response seen.
    if (observed && !read && reply) observed.live({ kind: "model_response", content: reply });
    await observed?.finish({
      ok,
      reply,
      exitCode: result.code,
      ...(endedIn ? { nativeSessionId: endedIn } : {}),
      ...(ok ? {} : { error: result.timedOut ? "timed out" : `exit ${result.code ?? result.signal}` }),
    });
    return {
      ok,
      ...(endedIn ? { sessionId: endedIn } : {}),
      reply,
      exitCode: result.code,
      signal: result.signal,
      timedOut: result.timedOut,
      stderr: result.stderr,
      ...(handedOver ? { handedOver } : {}),
      ...(this.#effort ? { effort: this.#effort } : {}),
      warnings,
    };
  }

  /**
   * Deletes the conversation a turn not to be kept ran in, with the harness's own command (in the turn's folder
   * and environment, where the harness looks it up). One it cannot delete, or a turn that never named its
   * conversation, is a warning naming what is left: the turn itself stands.
   */
  async #forget(forget: ForgetCommand, id: string | undefined, warnings: string[]): Promise<void> {
    const name = this.harness.name;
    if (id === undefined) {
      warnings.push(`${name} never named the conversation it ran the turn in, so it could not be deleted`);
      return;
    }
    const result = await runTurn(this.#options.bin, forget.args(id), undefined, this.#options, () => {})
      .catch((error: unknown) => ({ error: messageOf(error) }));
    if ("error" in result || result.timedOut || !forget.deleted(result)) {
      const why = "error" in result
        ? result.error
        : result.timedOut
        ? "timed out"
        : lastWords(result.stderr) || lastWords(result.stdout) || `exit ${result.code ?? result.signal}`;
      warnings.push(`${name} kept conversation ${id}, which could not be deleted (${why})`);
    }
  }

  /**
   * The effort the harness recorded for the conversation (read from its home as the child's environment named
   * it): kept, and recorded with the alias when it differs from what was, as LazyBridge records what a
   * conversation last ran with. A store that cannot be read is a warning.
   */
  async #learnEffort(spec: EngineSpec, id: string, warnings: string[]): Promise<void> {
    if (!spec.effortOf) return;
    let learned: string | undefined;
    try {
      const homes = resolveHomes([this.harness], {}, this.#options.env, this.#options.cwd);
      learned = await spec.effortOf(id, homeOf(homes, this.harness));
    } catch (error) {
      warnings.push(`could not read the effort ${this.harness.name} recorded for ${id}: ${messageOf(error)}`);
      return;
    }
    if (learned === undefined || learned === this.#effort) return;
    this.#effort = learned;
    if (this.#options.alias !== undefined) await this.#bind(id, warnings);
  }

  /** The reasoning effort the conversation runs at, as far as is known (see TurnOutcome.effort). */
  get effort(): string | undefined {
    return this.#effort;
  }

  /** The model the turns ask for, if one was given (the session graph records it). */
  get model(): string | undefined {
    return this.#options.model;
  }

  async #knownId(warnings: string[]): Promise<string | undefined> {
    const kind = this.harness.integrations.registryKind;
    if (kind === undefined) return undefined;
    try {
      return await this.#registry.resolve(kind, this.#options.cwd, this.#options.alias!);
    } catch (error) {
      warnings.push(`@${this.#options.alias}: could not read the registry: ${messageOf(error)}`);
      return undefined;
    }
  }

  /** Binds the alias to `id` (with the effort known now) unless this turn did; failures are warnings. */
  async #bind(id: string, warnings: string[]): Promise<void> {
    const kind = this.harness.integrations.registryKind;
    const binding = `${id}\u0000${this.#effort ?? ""}`;
    if (kind === undefined || binding === this.#lastBound) return;
    this.#lastBound = binding;
    try {
      await this.#registry.bind(kind, this.#options.cwd, this.#options.alias!, id, {
        model: this.#options.model ?? null,
        effort: this.#effort ?? null,
      });
    } catch (error) {
      warnings.push(`@${this.#options.alias}: could not record native id ${id}: ${messageOf(error)}`);
    }
  }

  /**
   * The conversation the alias names for other harnesses in this folder (the most recently bound, if several),
   * handed off to this harness with the alias following it; none when there is none or no stores were given.
   */
  async #handOverNamed(warnings: string[]): Promise<HandedOver | undefined> {
    const stores = this.#options.stores;
    const alias = this.#options.alias!;
    if (!stores) return undefined;
    const registry = stores.registry ?? builtinRegistry;
    const named = { registry: this.#registry, cwd: this.#options.cwd };
    let others;
    try {
      others = (await aliasBindings(named, alias, registry.harnesses)).filter((b) =>
        b.harness !== this.harness
      );
    } catch (error) {
      warnings.push(`@${alias}: could not read the registry: ${messageOf(error)}`);
      return undefined;
    }
    const newest =
      others.sort((a, b) => String(b.entry.updated_at).localeCompare(String(a.entry.updated_at)))[0];
    if (!newest) return undefined;
    const done = await handoff({
      source: { ref: newest.entry.native_id, from: newest.harness },
      to: this.harness,
      cwd: this.#options.cwd,
      alias,
      named,
      registry,
      homes: stores.homes,
      bridgeHome: stores.bridgeHome,
      ...(stores.recovered ? { recovered: true } : {}),
    });
    warnings.push(...(done.aliases?.warnings ?? []));
    return {
      from: { harness: newest.harness.name, id: newest.entry.native_id },
      to: { harness: this.harness.name, id: done.target.id },
      op: done.op!,
    };
  }
}

interface TurnResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs the binary with `input` on stdin (closed when none), handing each complete output line to `onLine` as it
 * arrives. PWD is the turn's folder, as a shell sets it for the commands it starts: a harness that takes its
 * directory from PWD before its working directory (OpenCode) would otherwise run in the caller's.
 */
function runTurn(
  bin: string,
  args: string[],
  input: string | undefined,
  options: EngineOptions,
  onLine: (line: string, stream: 1 | 2) => void,
): Promise<TurnResult> {
  return new Promise((resolve, reject) => {
    const spawned = { cwd: options.cwd, env: { ...options.env, PWD: options.cwd } };
    const child = input === undefined
      ? spawn(bin, args, { ...spawned, stdio: ["ignore", "pipe", "pipe"] })
      : spawn(bin, args, { ...spawned, stdio: ["pipe", "pipe", "pipe"] });
    // A child that exits without reading all of it closes the pipe: that is its answer, not ours to report.
    child.stdin?.on("error", () => {});
    child.stdin?.end(input);
    const text: [string, string] = ["", ""];
    const partial: [string, string] = ["", ""];
    const take = (index: 0 | 1) => (chunk: Buffer) => {
      const s = chunk.toString("utf8");
      text[index] += s;
      const lines = (partial[index] + s).split("\n");
      partial[index] = lines.pop() ?? "";
      for (const line of lines) onLine(line.replace(/\r$/, ""), (index + 1) as 1 | 2);
    };
    child.stdout.on("data", take(0));
    child.stderr.on("data", take(1));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGTERM");
    }, options.timeoutMs ?? 30 * 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new InputError(`cannot run ${bin}: ${messageOf(error)}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      for (const index of [0, 1] as const) if (partial[index]) onLine(partial[index], (index + 1) as 1 | 2);
      resolve({ code, signal, stdout: text[0], stderr: text[1], timedOut });
    });
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
