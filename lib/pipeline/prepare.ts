/**
 * The shared half of every conversion: choose the target id and cwd, compute the loss report against the
 * target's capabilities, and build the handshake from it. Harness writers only render what this decides.
 */
import type { Session } from "../ir/schema.ts";
import type { Harness, Homes, RenderOptions } from "../harnesses/types.ts";
import { buildReport, type ConversionReport } from "../report/report.ts";
import { handshakeText } from "../handshake/handshake.ts";
import { canonicalCwd } from "../io/paths.ts";
import { InputError } from "../errors.ts";
import { translateTools } from "../tools/translate.ts";
import { neutralizeSession } from "./neutralize.ts";
import { postureFrom } from "../posture/posture.ts";

export interface ConversionRequest {
  /** Keep the source id when the target can (same harness, plain conversion); otherwise mint one. */
  id?: string;
  cwd?: string;
  title?: string;
  model?: string;
  handshake: boolean;
  stubOpenCalls: boolean;
  now: Date;
  /** The stores, so the target's writer can match what is installed there. */
  homes?: Homes;
}

export interface PreparedConversion {
  /** The session as the target will receive it: tool calls translated into its vocabulary. */
  session: Session;
  options: RenderOptions;
  report: ConversionReport;
}

export function prepareConversion(
  source: Session,
  target: Harness,
  request: ConversionRequest,
): PreparedConversion {
  const cwd = request.cwd ? canonicalCwd(request.cwd) : source.meta.cwd;
  if (!cwd) throw new InputError("the source session records no working directory: pass --cwd DIR");
  const id = target.checkId(request.id ?? target.newId(request.now, source));
  const { session: translated, stats } = translateTools(source, target.name);
  // A same-harness copy keeps its records as they were; text moving to another harness is neutralized.
  const { session, neutralized } = source.meta.harness === target.name
    ? { session: translated, neutralized: 0 }
    : neutralizeSession(translated);
  const report = buildReport(session, target.capabilities, {
    handshake: request.handshake,
    stubbedCalls: request.stubOpenCalls ? session.pending.openToolCalls.length : 0,
    tools: stats,
    neutralized,
  });
  const posture = postureFrom(source.meta.harness, source.meta.permissionMode);
  const options: RenderOptions = {
    id,
    cwd,
    now: request.now,
    stubOpenCalls: request.stubOpenCalls,
    ...(posture ? { posture } : {}),
    ...(request.title ? { title: request.title } : {}),
    ...(request.model ? { model: request.model } : {}),
    ...(request.homes ? { homes: request.homes } : {}),
  };
  if (request.handshake) {
    options.handshake = handshakeText(session, report, { target: target.name, cwd, now: request.now });
  }
  return { session, options, report };
}
