/**
 * Pure conversion: a session rendered into another harness's format, written to a file or a descriptor,
 * touching no store. The translated calls' native forms are remembered for a later hop back.
 */
import { resolve } from "node:path";
import { InputError } from "../errors.ts";
import type { SessionHead, SessionStream } from "../ir/stream.ts";
import type { Harness } from "../harnesses/types.ts";
import { builtinRegistry } from "../harnesses/registry.ts";
import { homeOf } from "../harnesses/homes.ts";
import type { BrokenStore } from "../harnesses/stores.ts";
import { publishFile, writeLines } from "../io/publish.ts";
import { phaseClock } from "../io/phase-clock.ts";
import { holdingSignals } from "../io/interrupt.ts";
import { assertOutputFile } from "../io/paths.ts";
import { provenancePath, saveProvenance } from "../tools/provenance.ts";
import { withOutputIntent } from "./output.ts";
import { type ConversionReport, withNotes } from "../report/report.ts";
import {
  chosenSettings,
  type ConversionChoices,
  type ConversionRequest,
  prepareConversion,
  type PreparedConversion,
} from "./prepare.ts";
import { type SessionSource, sourceSession } from "./source.ts";
import { type EnvironmentOptions, writerEnvironment } from "./environment.ts";
import { harnessOf, type HarnessRef, type StoresRequest } from "./request.ts";
import { redactingLines, type RedactionTally } from "../observe/redact-transcript.ts";

/** Where the rendering goes: a new file (replaced only when asked), or an open descriptor such as stdout. */
export type Destination = { path: string; replace: boolean } | { fd: number };

export async function convertSession(
  source: SessionStream,
  target: Harness,
  request: ConversionRequest,
  destination: Destination,
  bridgeHome: string,
  /** When given, every secret in the written lines is redacted and counted here. */
  redaction?: RedactionTally,
): Promise<PreparedConversion> {
  const prepared = await prepareConversion(source, target, request);
  request.phases?.mark("fitted and planned");
  // A streamed session fitted to the window has its older messages in a spill file until they are written.
  try {
    const rendered = target.store.render(prepared.session, prepared.options);
    const lines = redaction ? redactingLines(rendered, redaction) : rendered;
    const provenance = () => saveProvenance(bridgeHome, target.name, prepared.options.id, prepared.memory);
    if ("path" in destination) {
      // A kill while the file is filled leaves an intent naming its temp file for recovery.
      const output = {
        command: "convert" as const,
        source: { harness: source.meta.harness, id: source.meta.id },
        target: { harness: target.name, id: prepared.options.id, path: destination.path },
        sidecars: [provenancePath(bridgeHome, target.name, prepared.options.id)],
      };
      await withOutputIntent(bridgeHome, output, request.now, async () => {
        await publishFile(destination.path, lines, destination.replace, request.feedback);
        request.phases?.mark("written and published");
        provenance();
      });
    } else {
      await writeLines(destination.fd, lines);
      request.phases?.mark("written");
      provenance();
    }
  } finally {
    prepared.release();
  }
  return { ...prepared, report: withNotes(prepared.report, target.store.fileLosses?.(prepared.session)) };
}

export interface ConvertRequest extends EnvironmentOptions, StoresRequest, ConversionChoices {
  source: SessionSource;
  /** The target harness whose format the session is rendered in (its descriptor, or a name or an alias). */
  to: HarnessRef;
  /** A file (made only if it does not exist, unless `force`), or an open descriptor such as 1 for stdout. */
  output: string | { fd: number };
  /** Replace `output` if it exists. */
  force?: boolean;
  /** Working directory the rendered session records (default: the source's). */
  cwd?: string;
  /** Replace every secret in the output with a `<redacted:LABEL>` marker, for sharing. */
  redact?: boolean;
  now?: Date;
}

export interface Converted {
  /** The absolute path written, or none when written to a descriptor. */
  output?: string;
  target: { harness: string; id: string };
  report: ConversionReport;
  skipped: BrokenStore[];
  /** How many secrets were replaced (only with `redact`). */
  redacted?: number;
}

/**
 * A same-harness conversion keeps the id, so untouched records come out byte for byte; an id the format cannot
 * hold (a file that names no session, read under its file name) gets a fresh one instead of a refusal about an
 * id the user never typed.
 */
function keptId(source: SessionHead, target: Harness): { id?: string } {
  if (target.name !== source.meta.harness) return {};
  try {
    return { id: target.store.checkId(source.meta.id) };
  } catch (error) {
    if (error instanceof InputError) return {};
    throw error;
  }
}

/** Reads the source and writes it in the target's format; Ctrl-C mid-write leaves no file and no temp file. */
export async function convert(request: ConvertRequest): Promise<Converted> {
  const registry = request.registry ?? builtinRegistry;
  const target = harnessOf(registry, request.to);
  const output = typeof request.output === "string" ? resolve(request.output) : undefined;
  if (output) assertOutputFile(output, "-o");
  // Bad input the request alone shows is refused before the source is opened (a streamed one would hold spills).
  const environment = writerEnvironment(target, request);
  const phases = phaseClock(request.env, request.feedback);
  // Ctrl-C while reading stops at the reader's next checkpoint; while writing, it leaves no file.
  return await holdingSignals(async () => {
    const { session: source, harness: from, skipped } = await sourceSession(request.source, {
      ...request,
      registry,
    });
    phases.mark("read");
    const destination: Destination = output
      ? { path: output, replace: request.force ?? false }
      : (request.output as { fd: number });
    const redaction: RedactionTally | undefined = request.redact ? { count: 0 } : undefined;
    const { options, report } = await convertSession(
      source,
      target,
      {
        registry,
        from,
        ...keptId(source, target),
        ...(request.cwd ? { cwd: request.cwd } : {}),
        ...chosenSettings(request),
        ...(request.summarizer ? { summarizer: request.summarizer } : {}),
        now: request.now ?? new Date(),
        home: homeOf(request.homes, target),
        ...environment,
        phases,
      },
      destination,
      request.bridgeHome,
      redaction,
    );
    phases.tell();
    return {
      ...(output ? { output } : {}),
      target: { harness: target.name, id: options.id },
      report,
      skipped,
      ...(redaction ? { redacted: redaction.count } : {}),
    };
  });
}
