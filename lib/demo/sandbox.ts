/**
 * The demo's throwaway world: harness homes in a temp folder, seeded with real captured sessions that are
 * embedded in the binary, so the demo runs on a machine with no harness installed.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bucketName } from "../harnesses/claude-code/bucket.ts";
import { sampleFor } from "../samples.ts";
import { createCodexStore } from "./codex-store.ts";
import { createHermesStore } from "./hermes-store.ts";

export interface Sandbox {
  root: string;
  /** The seeded homes by harness name (the built-in harnesses the demo tours). */
  homes: Readonly<Record<string, string>>;
  bridgeHome: string;
  sessionId: string;
  targetCwd: string;
}

const SAMPLE_CWD = "/home/user/project";

export function buildSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "session-bridge-demo-"));
  const claudeHome = join(root, "claude");
  const sample = sampleFor("claude-code");
  const sessionId = (JSON.parse(sample.lines[0]!) as { sessionId: string }).sessionId;
  const bucket = join(claudeHome, "projects", bucketName(SAMPLE_CWD));
  mkdirSync(bucket, { recursive: true });
  writeFileSync(join(bucket, `${sessionId}.jsonl`), `${sample.lines.join("\n")}\n`);
  const targetCwd = join(root, "other-project");
  mkdirSync(targetCwd);
  // A Codex home as its first run leaves it (no config.toml: Codex's default provider).
  const codexHome = join(root, "codex");
  createCodexStore(codexHome);
  const hermesHome = join(root, "hermes");
  createHermesStore(hermesHome, sampleModel(sample.lines));
  return {
    root,
    homes: { "claude-code": claudeHome, codex: codexHome, hermes: hermesHome },
    bridgeHome: join(root, "session-bridge"),
    sessionId,
    targetCwd,
  };
}

/** The model the sample ran on, for the sandbox Hermes to route to. */
function sampleModel(lines: string[]): string | undefined {
  for (const line of lines) {
    const model = (JSON.parse(line) as { message?: { model?: unknown } }).message?.model;
    if (typeof model === "string") return model;
  }
  return undefined;
}
