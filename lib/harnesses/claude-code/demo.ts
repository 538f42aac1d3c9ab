/** Claude Code in the demo's sandbox: the source, seeded with the embedded sample transcript. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DemoSeat } from "../types.ts";
import { sampleFor } from "../../samples.ts";
import { samples } from "./samples.ts";
import { bucketName } from "./bucket.ts";

export const seat: DemoSeat = {
  sample(home, cwd) {
    const sample = sampleFor(samples);
    const id = (JSON.parse(sample.lines[0]!) as { sessionId: string }).sessionId;
    const bucket = join(home, "projects", bucketName(cwd));
    mkdirSync(bucket, { recursive: true });
    writeFileSync(join(bucket, `${id}.jsonl`), `${sample.lines.join("\n")}\n`);
    const model = sampleModel(sample.lines);
    return model ? { id, model } : { id };
  },
};

/** The model the sample ran on: the first assistant record's. */
function sampleModel(lines: string[]): string | undefined {
  for (const line of lines) {
    const model = (JSON.parse(line) as { message?: { model?: unknown } }).message?.model;
    if (typeof model === "string") return model;
  }
  return undefined;
}
