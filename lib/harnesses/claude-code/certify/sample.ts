/** A captured Claude Code transcript placed in a config dir where that Claude would have written it. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bucketName } from "../bucket.ts";
import { sampleFor } from "../../../samples.ts";
import { samples } from "../samples.ts";

interface Located {
  sessionId?: unknown;
  cwd?: unknown;
}

export function writeSampleTranscript(configDir: string, version: string): Promise<void> {
  const sample = sampleFor(samples, version);
  // Queue and summary records carry no cwd; the first conversation record has both.
  const first = sample.lines.map((l) => JSON.parse(l) as Located)
    .find((r) => typeof r.sessionId === "string" && typeof r.cwd === "string");
  if (!first) throw new Error(`${sample.source}: no record with a session id and cwd`);
  const bucket = join(configDir, "projects", bucketName(first.cwd as string, sample.version));
  mkdirSync(bucket, { recursive: true });
  writeFileSync(join(bucket, `${first.sessionId as string}.jsonl`), `${sample.lines.join("\n")}\n`);
  return Promise.resolve();
}
