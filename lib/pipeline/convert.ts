/**
 * Pure conversion: a session rendered into another harness's format, written to a file or a descriptor,
 * touching no store. The translated calls' native forms are remembered for a later hop back.
 */
import type { Session } from "../ir/schema.ts";
import type { Harness } from "../harnesses/types.ts";
import { publishFile, writeLines } from "../io/publish.ts";
import { saveProvenance } from "../tools/provenance.ts";
import { withNotes } from "../report/report.ts";
import { type ConversionRequest, prepareConversion, type PreparedConversion } from "./prepare.ts";

/** Where the rendering goes: a new file (replaced only when asked), or an open descriptor such as stdout. */
export type Destination = { path: string; replace: boolean } | { fd: number };

export async function convertSession(
  source: Session,
  target: Harness,
  request: ConversionRequest,
  destination: Destination,
): Promise<PreparedConversion> {
  const prepared = prepareConversion(source, target, request);
  const lines = target.render(prepared.session, prepared.options);
  if ("path" in destination) await publishFile(destination.path, lines, destination.replace);
  else await writeLines(destination.fd, lines);
  saveProvenance(target.name, prepared.options.id, prepared.session, prepared.memory);
  return { ...prepared, report: withNotes(prepared.report, target.fileLosses?.(prepared.session)) };
}
