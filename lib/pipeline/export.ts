/**
 * A session written to a JSONL file in its own harness's format: the harness's own same-harness rendering,
 * its records as they are, id and working directory unchanged, nothing added (no handshake, no stubs).
 * Database-only sessions (Hermes) become a file the way `hermes sessions export` writes one.
 */
import { resolve } from "node:path";
import { builtinRegistry } from "../harnesses/registry.ts";
import { homeOf } from "../harnesses/homes.ts";
import { publishFile, writeLines } from "../io/publish.ts";
import { holdingSignals } from "../io/interrupt.ts";
import { assertOutputFile } from "../io/paths.ts";
import { loadSession } from "./load.ts";
import { withOutputIntent } from "./output.ts";
import type { StoresRequest } from "./request.ts";
import { type EnvironmentOptions, writerEnvironment } from "./environment.ts";
import { redactingLines, type RedactionTally } from "../observe/redact-transcript.ts";

export interface ExportRequest extends EnvironmentOptions, StoresRequest {
  /** A reference in any of the forms of reference.ts: a path, an id or prefix, a title, `latest`, `codex~2`. */
  ref: string;
  /** Look in this harness only (a name or an alias). */
  from?: string;
  /** The file to write (made only if it does not exist, unless `force`), or an open descriptor (stdout). */
  output: string | { fd: number };
  force?: boolean;
  /** Replace every secret in the written file with a `<redacted:LABEL>` marker, for sharing. */
  redact?: boolean;
  now?: Date;
}

export interface Exported {
  /** The absolute path written (none when written to a descriptor). */
  output?: string;
  session: { harness: string; id: string };
  /** How many secrets were replaced (only with `redact`). */
  redacted?: number;
}

export async function exportSession(request: ExportRequest): Promise<Exported> {
  const path = typeof request.output === "string" ? resolve(request.output) : undefined;
  if (path) assertOutputFile(path, "-o");
  // Ctrl-C while reading stops at the reader's next checkpoint; while writing, it leaves no file.
  return await holdingSignals(async () => {
    const { session, source } = await loadSession({
      ...request,
      registry: request.registry ?? builtinRegistry,
    });
    const now = request.now ?? new Date();
    const rendered = source.store.render(session, {
      id: session.meta.id,
      cwd: session.meta.cwd ?? "",
      now,
      stubOpenCalls: false,
      home: homeOf(request.homes, source),
      ...writerEnvironment(source, request),
      verbatim: true,
    });
    const tally: RedactionTally = { count: 0 };
    const lines = request.redact ? redactingLines(rendered, tally) : rendered;
    // Ctrl-C mid-write stops at the next chunk and leaves neither the file nor its temp file; a kill leaves an
    // intent naming the temp file for recovery.
    const which = { harness: session.meta.harness, id: session.meta.id };
    if (path) {
      const output = { command: "export" as const, source: which, target: { ...which, path } };
      await withOutputIntent(
        request.bridgeHome,
        output,
        now,
        () => publishFile(path, lines, request.force ?? false, request.feedback),
      );
    } else await writeLines((request.output as { fd: number }).fd, lines);
    return {
      ...(path ? { output: path } : {}),
      session: { harness: session.meta.harness, id: session.meta.id },
      ...(request.redact ? { redacted: tally.count } : {}),
    };
  });
}
