/**
 * The shared half of every conversion: choose the target id, cwd and model, carry pending state forward,
 * make text and proofs fit for the target, compute the loss report against the target's capabilities, and
 * build the handshake from it. Harness writers only render what this decides.
 */
import type { Session } from "../ir/schema.ts";
import type { Harness, RenderOptions } from "../harnesses/types.ts";
import { buildReport, type ConversionReport } from "../report/report.ts";
import { handshakeText } from "../handshake/handshake.ts";
import { carryPending, statedPending } from "../handshake/carry.ts";
import { canonicalCwd } from "../io/paths.ts";
import { InputError } from "../errors.ts";
import { translateTools } from "../tools/translate.ts";
import type { ConversionMemory } from "../tools/provenance.ts";
import { controlTags, neutralizeSession, neutralizeText } from "./neutralize.ts";
import { escapeControls, titleText } from "../io/control-characters.ts";
import { closeOpenCalls } from "./close-calls.ts";
import { chooseModel, type ModelChoice } from "./model.ts";
import { detachProofs } from "../ir/reasoning.ts";
import type { Posture, PostureCarry } from "../posture/posture.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";

export interface ConversionRequest {
  /** The harnesses this run knows: the source's descriptor and every harness's control tags come from it. */
  registry: Registry;
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
  now: Date;
  /** The target's home, so its writer can match what is installed there. */
  home?: string;
  /** The environment read at the edge, for the target's writer (see RenderOptions.env). */
  env?: NodeJS.ProcessEnv;
  /** The version to write for when the target's home shows none (see Harness.versionVariable). */
  targetVersion?: string;
}

export interface PreparedConversion {
  /** The session as the target will receive it: tool calls translated into its vocabulary. */
  session: Session;
  options: RenderOptions;
  report: ConversionReport;
  /** What a hop back needs to undo this conversion exactly (saved as provenance with the written session). */
  memory: ConversionMemory;
}

export async function prepareConversion(
  source: Session,
  target: Harness,
  request: ConversionRequest,
): Promise<PreparedConversion> {
  const cwd = request.cwd ? canonicalCwd(request.cwd) : source.meta.cwd;
  if (!cwd) throw new InputError("the source session records no working directory: pass --cwd DIR");
  const id = target.checkId(request.id ?? target.newId(request.now, source));
  const from = findHarness(request.registry, source.meta.harness);
  const same = from.name === target.name;
  const stub = request.stubOpenCalls ?? true;
  const { pending, carried } = carryPending(source);
  const { session: translated, stats } = translateTools({ ...source, pending }, from, target);
  let session = withCallNames(translated);
  let tags = 0;
  let controls = 0;
  let proofs = { detached: [] as ConversionMemory["reasoning"], proofs: 0, asText: 0, unproven: 0 };
  // A same-harness copy keeps its records as they were; text moving to another harness is neutralized, and
  // reasoning proofs go only where their provider is.
  if (!same) {
    const tagged = controlTags(request.registry.harnesses.flatMap((h) => h.controlTags));
    const neutral = neutralizeSession(session, tagged);
    ({ tags, controls } = neutral);
    const detached = detachProofs(
      neutral.session,
      target.capabilities.reasoningProvider,
      (text) => escapeControls(neutralizeText(text, tagged).text).text,
      from.provesReasoning,
    );
    session = detached.session;
    proofs = detached;
  }
  // Foreign renderings get the interrupted results in the thread itself, right after their calls; a
  // same-harness copy, which renders the source's own records, has its writer append them.
  if (!same && stub) session = closeOpenCalls(session).session;
  const posture = targetPosture(source, from, target);
  const model = same && !request.model ? undefined : await chooseTargetModel(source, target, request);
  const report = buildReport(session, target.capabilities, {
    handshake: request.handshake,
    stubbedCalls: stub,
    tools: stats,
    neutralized: tags,
    controls,
    proofsDetached: proofs.proofs,
    reasoningAsText: proofs.asText,
    proofsUnproven: proofs.unproven,
    ...(posture ? { posture: { posture, source: from, target } satisfies PostureCarry } : {}),
    ...(model ? { model } : {}),
    carried,
  });
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
  };
  if (request.handshake) {
    options.handshake = handshakeText(session, report, { target: target.name, cwd, now: request.now });
  }
  const stated = request.handshake ? statedPending(session.pending, request.now) : undefined;
  const memory: ConversionMemory = {
    reasoning: proofs.detached,
    ...postureMemory(source, target, posture),
    ...(stated ? { pending: stated } : {}),
  };
  return { session, options, report, memory };
}

/** Pending calls named as the target names them (a stub for a translated call carries `terminal`, not `Bash`). */
function withCallNames(session: Session): Session {
  const names = new Map<string, string>();
  for (const m of session.messages) {
    for (const b of m.blocks) if (b.type === "tool_call") names.set(b.id, b.name);
  }
  const openToolCalls = session.pending.openToolCalls.map((c) => ({
    ...c,
    name: names.get(c.callId) ?? c.name,
  }));
  return { ...session, pending: { ...session.pending, openToolCalls } };
}

/** The source's posture by meaning; on a hop back to the harness it was first stated in, its exact words. */
function targetPosture(source: Session, from: Harness, target: Harness): Posture | undefined {
  const { permissionMode, permissionNative } = source.meta;
  const posture = permissionMode ? from.posture?.toPosture(permissionMode) : undefined;
  if (!posture) return undefined;
  return permissionNative?.harness === target.name ? { ...posture, native: permissionNative } : posture;
}

function postureMemory(
  source: Session,
  target: Harness,
  posture: Posture | undefined,
): Partial<ConversionMemory> {
  const words = source.meta.permissionMode;
  const written = posture && target.posture?.words(posture);
  if (!words || !written || source.meta.harness === target.name) return {};
  return { posture: { native: { harness: source.meta.harness, words }, written } };
}

async function chooseTargetModel(
  source: Session,
  target: Harness,
  request: ConversionRequest,
): Promise<ModelChoice> {
  const configured = request.home ? await target.configuredModel(request.home) : undefined;
  return chooseModel(target, request.model, configured, source.meta.models.at(-1));
}
