/**
 * The shared half of every conversion: choose the target id, cwd and model, carry pending state forward,
 * make text and proofs fit for the target, compute the loss report against the target's capabilities, and
 * build the handshake from it. Harness writers only render what this decides.
 */
import type { PhaseClock } from "../io/phase-clock.ts";
import type { Feedback } from "../io/progress.ts";
import type { Message, NativeToolCall, Pending, QueuedInput } from "../ir/schema.ts";
import type { Capabilities } from "../report/capabilities.ts";
import {
  madeMessages,
  type Messages,
  pipeMessages,
  type SessionHead,
  type SessionStream,
  type ThreadStream,
} from "../ir/stream.ts";
import type { Harness, RenderOptions } from "../harnesses/types.ts";
import type { ConversionReport } from "../report/report.ts";
import { buildReport, ThreadTally } from "./report.ts";
import { handshakeText } from "../handshake/handshake.ts";
import {
  carryPending,
  type CarrySurvey,
  newCarrySurvey,
  noteCarryFacts,
  statedPending,
} from "../handshake/carry.ts";
import { canonicalCwd } from "../io/paths.ts";
import { InputError } from "../errors.ts";
import { noTranslation, toolTranslator, type TranslationStats } from "../tools/translate.ts";
import { type ConversionMemory, noteNativeCalls } from "../tools/provenance.ts";
import {
  controlTags,
  neutralizeCounted,
  type NeutralizedCounts,
  neutralizeMessage,
  neutralizeText,
} from "./neutralize.ts";
import { escapeControls, titleText } from "../io/control-characters.ts";
import { continuesResponse, StubInserter } from "./close-calls.ts";
import { endingWithQueued } from "./queued.ts";
import { chooseModel, type ModelChoice } from "./model.ts";
import { type Detached, DetachedProofs, nothingDetached, proofDetacher } from "../ir/reasoning.ts";
import { carryPosture, type PermissionsChoice, type Posture, type PostureSide } from "../posture/posture.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import type { ReadLimits } from "../io/jsonl.ts";
import { type FitMode, type FitPlan, fitSession, type Fitting } from "../fit/fit.ts";
import { fitEntries } from "../fit/report.ts";
import type { Summarizer } from "../fit/summarizer.ts";
import { withNotes } from "../report/report.ts";
import { ALL_STEPS, DETACH, NEUTRALIZE, StepLog, TRANSLATE } from "./fit-steps.ts";

export interface ConversionRequest {
  /** The harnesses this run knows: the source's descriptor and every harness's control tags come from it. */
  registry: Registry;
  /** The harness the source was read from, when the caller has it (else found by the session's harness name). */
  from?: Harness;
  /** Keep the source id when the target can (same harness, plain conversion); otherwise mint one. */
  id?: string;
  cwd?: string;
  title?: string;
  /** --model: the model the target continues on, whatever its configuration says. */
  model?: string;
  handshake: boolean;
  /**
   * Answer interrupted calls with a result that says so (the default: every target mishandles an unanswered
   * call, see close-calls.ts); false leaves them open (--no-stub-open-calls).
   */
  stubOpenCalls?: boolean;
  /**
   * How far the source's permission posture travels into another harness (default `narrow`: no further than
   * the target's own default; `keep`: as it was, --permissions keep).
   */
  permissions?: PermissionsChoice;
  now: Date;
  /** The target's home, so its writer can match what is installed there. */
  home?: string;
  /** The environment read at the edge, for the target's writer (see RenderOptions.env). */
  env?: NodeJS.ProcessEnv;
  /** The version to write for when the target's home shows none (see Harness.versionVariable). */
  targetVersion?: string;
  /** The limits the source's records are read again with, by a writer copying them (see RenderOptions.limits). */
  limits?: ReadLimits;
  /** Where the writer reading the source's records again reports how far it is (see RenderOptions.feedback). */
  feedback?: Feedback;
  /**
   * Fit the history to the target model's window (lib/fit): `auto` (the default) only when it would not fit,
   * `off` never, a number: to at most that many tokens. A copy within one harness is never fitted.
   */
  fit?: FitMode;
  /** --context: the target model's window in tokens, whatever its configuration or session-bridge's table says. */
  context?: number;
  /** --summarize-with: a harness's model writes a fitted session's summary (lib/fit/summarizer.ts). */
  summarizer?: Summarizer;
  /** Where the caller's thread spends its time, phase by phase (told with SESSION_BRIDGE_DEBUG=1). */
  phases?: PhaseClock;
}

/** What a convert or handoff request chooses for its conversion, each optional as the caller gives it. */
export interface ConversionChoices {
  /** Model the target continues on (default: the target's configured model, else the source's mapped). */
  model?: string;
  /** Append the resume handshake (default true). */
  handshake?: boolean;
  /** Answer interrupted tool calls with a result saying so (default true). */
  stubOpenCalls?: boolean;
  /** How far the source's permission posture travels (default `narrow`; see PermissionsChoice). */
  permissions?: PermissionsChoice;
  /** Fit the history to the target model's window: auto (the default), off, or at most TOKENS (lib/fit). */
  fit?: FitMode;
  /** The target model's window in tokens, over its configuration's and session-bridge's table. */
  context?: number;
  /** `--summarize-with`: a harness's model writes a fitted session's summary (asked only when writing). */
  summarizer?: Summarizer;
}

/** The conversion's settings for `choices`: a handshake and interrupted calls closed unless turned off. */
export function chosenSettings(
  choices: ConversionChoices,
): Pick<ConversionRequest, Exclude<keyof ConversionChoices, "summarizer">> {
  return {
    ...(choices.model ? { model: choices.model } : {}),
    handshake: choices.handshake ?? true,
    stubOpenCalls: choices.stubOpenCalls ?? true,
    ...(choices.permissions ? { permissions: choices.permissions } : {}),
    ...(choices.fit !== undefined ? { fit: choices.fit } : {}),
    ...(choices.context ? { context: choices.context } : {}),
  };
}

export interface PreparedConversion {
  /**
   * The session as the target will receive it: tool calls translated into its vocabulary, text made inert,
   * interrupted calls answered. A streamed source stays streamed: each message is made fit as it is read.
   */
  session: SessionStream;
  options: RenderOptions;
  report: ConversionReport;
  /** What a hop back needs to undo this conversion exactly (saved as provenance with the written session). */
  memory: ConversionMemory;
  /** What fitting the history to the target's window found and did (absent: not asked, or a same-harness copy). */
  fit?: FitPlan;
  /**
   * Lets go of what a fitted session's compacted thread is read from (Fitting) and what the source's reader
   * keeps outside memory (SessionStream.release), once the session is written.
   */
  release(): void;
}

/**
 * Prepares a conversion in one pass over the source's thread (the survey), which gathers everything the report,
 * the handshake and the pending state need; the thread itself is transformed again, message by message, as
 * the target's writer reads it, so a streamed session is never held whole.
 */
export async function prepareConversion(
  read: SessionStream,
  target: Harness,
  request: ConversionRequest,
): Promise<PreparedConversion> {
  try {
    return await prepareRead(read, target, request);
  } catch (error) {
    read.release?.();
    throw error;
  }
}

async function prepareRead(
  read: SessionStream,
  target: Harness,
  request: ConversionRequest,
): Promise<PreparedConversion> {
  const cwd = request.cwd ? canonicalCwd(request.cwd) : read.meta.cwd;
  if (!cwd) throw new InputError("the source session records no working directory: pass --cwd DIR");
  const id = target.store.checkId(request.id ?? target.store.newId(request.now, read));
  const from = request.from ?? findHarness(request.registry, read.meta.harness);
  const same = from.name === target.name;
  const model = same && !request.model ? undefined : await chooseTargetModel(read, target, request, cwd);
  // The model's window decides how much of the history it is sent; a copy within one harness stays as it was.
  const fitting = same ? undefined : await fitToTarget(read, target, model, request);
  const source = fitting?.session ?? read;
  const stub = request.stubOpenCalls ?? true;
  const fit = messageFitter(source, from, target, request.registry);
  // A held thread is held fitted (made fit once); a streamed one is made fit again as the writer reads it.
  const fitted: Message[] | undefined = Array.isArray(source.messages) ? [] : undefined;
  const survey = await surveyThread(source.messages, fit, fitted);
  const carriedPending = carryPending(source.pending, source.earlierHandoff, survey.carry);
  const { carried } = carriedPending;
  let pending = withCallNames(carriedPending.pending, survey.carry.calls);
  // A same-harness copy keeps its records as they were, its queue included; text moving to another harness is
  // neutralized, and a prompt queued and never sent becomes the user's last message (queued.ts). One an
  // earlier handshake stated before the conversation went on stays stated, for the model to check.
  let queued: QueuedInput[] = [];
  if (!same) {
    const queuedInput = pending.queuedInput.map((q) => ({
      ...q,
      text: fit.neutralize(q.text, survey.neutral),
    }));
    queued = queuedInput.filter((q) => !q.earlier);
    pending = { ...pending, queuedInput: queuedInput.filter((q) => q.earlier) };
  }
  // Foreign renderings get the interrupted results in the thread itself, right after their calls; a
  // same-harness copy, which renders the source's own records, has its writer append them.
  const open = !same && stub
    ? new Set(
      pending.openToolCalls.filter((c) => c.messageUid && !survey.answered.has(c.callId)).map((c) =>
        c.callId
      ),
    )
    : new Set<string>();
  const logs = surveyThreads(source.threads, target.conversation.capabilities, fit, survey);
  const session: SessionStream = {
    ...source,
    pending,
    // Made fit again as the writer reads them, by the steps the survey found change them: a fitted session's
    // compacted thread is its whole history, which made fit up front would be held twice.
    threads: source.threads.map((t, i) => ({
      ...t,
      messages: madeMessages(t.messages, () => {
        const tally = fit.tally(false);
        const log = logs[i];
        let index = 0;
        return (m) => fit.message(m, tally, log?.at(index++));
      }),
    })),
    messages: fitted
      ? pipeMessages(fitted, () => endingWithQueued(new StubInserter(open), queued))
      : pipeMessages(source.messages, () => {
        const tally = fit.tally(false);
        const stubs = new StubInserter(open);
        let index = 0;
        return endingWithQueued(
          {
            next: (m) => stubs.next(fit.message(m, tally, survey.steps.at(index++))),
            end: () => stubs.end(),
          },
          queued,
        );
      }),
  };
  const carry = targetPosture(source, from, target, request.permissions ?? "narrow");
  const posture = carry?.posture;
  const { proofs } = survey;
  const built = buildReport(
    session,
    target.conversation.capabilities,
    {
      handshake: request.handshake,
      stubbedCalls: stub,
      tools: survey.tools,
      neutralized: survey.neutral.tags,
      controls: survey.neutral.controls,
      proofsDetached: proofs.proofs,
      reasoningAsText: proofs.asText,
      proofsUnproven: proofs.unproven,
      ...(carry ? { posture: { ...carry, source: postureSide(from), target: postureSide(target) } } : {}),
      ...(model ? { model } : {}),
      carried,
      queuedInThread: queued.length,
    },
    survey.tally,
    stubPositions(survey, open),
  );
  const report = withNotes(built, fitEntries(fitting?.plan));
  // A title lands in a field the target shows as is (its picker, a terminal title): cleaned on every route.
  const title = request.title === undefined ? undefined : titleText(request.title) || undefined;
  const options: RenderOptions = {
    id,
    cwd,
    now: request.now,
    stubOpenCalls: same && stub,
    ...(posture ? { posture } : {}),
    ...(title ? { title } : {}),
    ...(model?.model ? { model: model.model } : {}),
    ...(request.home ? { home: request.home } : {}),
    ...(request.env ? { env: request.env } : {}),
    ...(request.targetVersion ? { targetVersion: request.targetVersion } : {}),
    ...(request.limits ? { limits: request.limits } : {}),
    ...(request.feedback ? { feedback: request.feedback } : {}),
  };
  if (request.handshake) {
    options.handshake = handshakeText(session, report, { target: target.name, cwd, now: request.now });
  }
  const stated = request.handshake ? statedPending(session.pending, request.now) : undefined;
  const memory: ConversionMemory = {
    calls: survey.natives,
    reasoning: proofs.detached ?? new DetachedProofs(),
    ...postureMemory(source, target, posture),
    ...(stated ? { pending: stated } : {}),
  };
  const release = () => {
    fitting?.release();
    read.release?.();
  };
  return { session, options, report, memory, release, ...(fitting ? { fit: fitting.plan } : {}) };
}

/** How each message is made fit for the target, with what doing so changed counted into a tally. */
interface MessageFitter {
  /** A fresh tally: the survey's, or one for a pass that only renders, which keeps no detached proofs. */
  tally(survey: boolean): FitTally;
  /**
   * `m` made fit, counted into `tally`, by the steps `run` names (fit-steps.ts; all by default); which of them
   * changed it is pushed to `log` when given.
   */
  message(m: Message, tally: FitTally, run?: number, log?: StepLog): Message;
  translate(m: Message, stats: TranslationStats): Message;
  neutralize(text: string, counts: NeutralizedCounts): string;
}

/** Whether the target writes a thread kept apart from the live one (the rest are reported as lost). */
function keepsThread(thread: ThreadStream, capabilities: Capabilities): boolean {
  switch (thread.kind) {
    case "compacted":
      return capabilities.keepsCompactedHistory;
    case "abandoned-branch":
      return capabilities.threadTopology;
    case "sidechain":
    case "subagent":
      return capabilities.subagents;
  }
}

interface FitTally {
  tools: TranslationStats;
  neutral: NeutralizedCounts;
  proofs: Detached;
}

function messageFitter(
  source: SessionStream,
  from: Harness,
  target: Harness,
  registry: Registry,
): MessageFitter {
  const translate = toolTranslator(
    { name: from.name, tools: from.conversation.tools },
    { name: target.name, tools: target.conversation.tools },
  );
  const tally = (survey: boolean): FitTally => ({
    tools: noTranslation(),
    neutral: { tags: 0, controls: 0 },
    proofs: nothingDetached(survey),
  });
  if (from.name === target.name) {
    const message = (m: Message, t: FitTally, run = ALL_STEPS, log?: StepLog) => {
      const made = run & TRANSLATE ? translate(m, t.tools) : m;
      log?.push(made === m ? 0 : TRANSLATE);
      return made;
    };
    return { tally, translate, message, neutralize: (text) => text };
  }
  const tagged = controlTags(registry.harnesses.flatMap((h) => h.conversation.controlTags));
  const neutralize = (text: string, counts: NeutralizedCounts) => neutralizeCounted(text, tagged, counts);
  // Reasoning proofs go only where their provider is; the text they travel as is what a hop back matches.
  const detach = proofDetacher(
    target.conversation.capabilities.reasoningProvider,
    (text) => escapeControls(neutralizeText(text, tagged).text).text,
    (block) => from.conversation.provesReasoning(source, block),
  );
  const message = (m: Message, t: FitTally, run = ALL_STEPS, log?: StepLog) => {
    const translated = run & TRANSLATE ? translate(m, t.tools) : m;
    const neutral = run & NEUTRALIZE ? neutralizeMessage(translated, tagged, t.neutral) : translated;
    const made = run & DETACH ? detach(neutral, t.proofs) : neutral;
    log?.push(
      (translated === m ? 0 : TRANSLATE) | (neutral === translated ? 0 : NEUTRALIZE) |
        (made === neutral ? 0 : DETACH),
    );
    return made;
  };
  return { tally, translate, neutralize, message };
}

/** What one pass over the source's thread, each message made fit for the target, tells the rest of prepare. */
interface ThreadSurvey extends FitTally {
  tally: ThreadTally;
  carry: CarrySurvey;
  /** Calls that have a result somewhere in the thread. */
  answered: Set<string>;
  /** By caller uid: the position after which the caller's response ends (where its stub would go). */
  responseEnds: Map<string, number>;
  natives: Record<string, NativeToolCall>;
  /** The steps that changed each message of a streamed thread, which the writer's pass makes fit again. */
  steps: StepLog;
}

/** The survey, each fitted message also pushed to `fitted` when given. */
async function surveyThread(
  messages: Messages,
  fit: MessageFitter,
  fitted?: Message[],
): Promise<ThreadSurvey> {
  const survey: ThreadSurvey = {
    ...fit.tally(true),
    tally: new ThreadTally(),
    carry: newCarrySurvey(),
    answered: new Set(),
    responseEnds: new Map(),
    natives: {},
    steps: new StepLog(),
  };
  /** Callers whose response is still going on, as of the message in hand. */
  let responding: Message[] = [];
  let index = 0;
  for await (const source of messages) {
    // A held thread is made fit here once (pushed to `fitted`): only a streamed one is made again.
    const m = fit.message(source, survey, ALL_STEPS, fitted ? undefined : survey.steps);
    fitted?.push(m);
    responding = responding.filter((caller) => {
      const goesOn = continuesResponse(caller, m);
      if (goesOn) survey.responseEnds.set(caller.uid, index);
      return goesOn;
    });
    if (m.blocks.some((b) => b.type === "tool_call")) {
      survey.responseEnds.set(m.uid, index);
      responding.push(m);
    }
    for (const b of m.blocks) if (b.type === "tool_result") survey.answered.add(b.callId);
    noteCarryFacts(survey.carry, m, index);
    noteNativeCalls(m, survey.natives);
    survey.tally.add(m, index);
    index++;
  }
  return survey;
}

/**
 * The threads beside the live one surveyed into `survey`: what making those the target keeps fit does is counted
 * with the live thread (its proofs detached remembered), the tool calls of every thread are counted. Gives, for
 * each thread kept, the steps that changed its messages (for the writer's pass; none for a thread not kept).
 */
function surveyThreads(
  threads: readonly ThreadStream[],
  capabilities: Capabilities,
  fit: MessageFitter,
  survey: ThreadSurvey,
): (StepLog | undefined)[] {
  return threads.map((t) => {
    if (!keepsThread(t, capabilities)) {
      for (const m of t.messages) fit.translate(m, survey.tools);
      return undefined;
    }
    const log = new StepLog();
    for (const m of t.messages) fit.message(m, survey, ALL_STEPS, log);
    return log;
  });
}

/**
 * Where the surveyed message at each position lands once stubs are inserted: one stub message follows the
 * response of each caller of an open call, so a message moves down by the stubs whose response ended before it.
 */
function stubPositions(survey: ThreadSurvey, open: ReadonlySet<string>): (index: number) => number {
  const callers = new Set(
    [...open].flatMap((callId) => {
      const uid = survey.carry.calls.get(callId)?.uid;
      return uid === undefined ? [] : [uid];
    }),
  );
  const ends = [...callers].map((uid) => survey.responseEnds.get(uid) ?? -1).sort((a, b) => a - b);
  return (index) => index + ends.filter((end) => end < index).length;
}

/** Pending calls named as the target names them (a stub for a translated call carries `terminal`, not `Bash`). */
function withCallNames(pending: Pending, calls: ReadonlyMap<string, { name: string }>): Pending {
  const openToolCalls = pending.openToolCalls.map((c) => ({
    ...c,
    name: calls.get(c.callId)?.name ?? c.name,
  }));
  return { ...pending, openToolCalls };
}

/** A harness as the posture report names it. */
const postureSide = (h: Harness): PostureSide => ({
  name: h.name,
  title: h.title,
  posture: h.conversation.posture,
});

/**
 * The source's posture by meaning (on a hop back to the harness it was first stated in, its exact words), as
 * far as `choice` lets it travel into another harness (carryPosture). A copy within one harness keeps it.
 */
function targetPosture(
  source: SessionStream,
  from: Harness,
  target: Harness,
  choice: PermissionsChoice,
): ReturnType<typeof carryPosture> | undefined {
  const { permissionMode, permissionNative } = source.meta;
  const posture = permissionMode ? from.conversation.posture?.toPosture(permissionMode) : undefined;
  if (!posture) return undefined;
  const stated = permissionNative?.harness === target.name
    ? { ...posture, native: permissionNative }
    : posture;
  return from.name === target.name
    ? { posture: stated }
    : carryPosture(stated, target.conversation.posture, choice);
}

function postureMemory(
  source: SessionStream,
  target: Harness,
  posture: Posture | undefined,
): Partial<ConversionMemory> {
  const words = source.meta.permissionMode;
  const written = posture && target.conversation.posture?.words(posture);
  if (!words || !written || source.meta.harness === target.name) return {};
  return { posture: { native: { harness: source.meta.harness, words }, written } };
}

/** The session fitted to the window of the model `choice` names in `target` (lib/fit). */
export function fitToTarget(
  session: SessionStream,
  target: Harness,
  choice: ModelChoice | undefined,
  request: Pick<ConversionRequest, "fit" | "context" | "summarizer">,
): Promise<Fitting | undefined> {
  return fitSession(session, {
    mode: request.fit ?? "auto",
    models: target.conversation.models,
    ...(choice?.model ? { model: choice.model } : {}),
    ...(request.context ? { context: request.context } : {}),
    ...(choice?.reason === "target-config" && choice.window ? { configuredWindow: choice.window } : {}),
    ...(request.summarizer ? { summarizer: request.summarizer } : {}),
  });
}

/** The model the target continues on and why (lib/pipeline/model.ts), from its home's configuration. */
export async function chooseTargetModel(
  source: SessionHead,
  target: Harness,
  request: Pick<ConversionRequest, "env" | "home" | "model">,
  cwd: string | undefined,
): Promise<ModelChoice> {
  const place = { ...(cwd ? { cwd } : {}), ...(request.env ? { env: request.env } : {}) };
  const configured = request.home ? await target.store.configuredModel(request.home, place) : undefined;
  return chooseModel(
    { name: target.name, models: target.conversation.models },
    request.model,
    configured,
    source.meta.models.at(-1),
  );
}
