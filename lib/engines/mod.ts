/**
 * The three engines by harness: each runs one turn at a time through that harness's binary with LazyBridge's
 * alias rules (see engine.ts), named as LazyBridge names its own.
 */
import { claudeCode } from "../harnesses/claude-code/index.ts";
import { codex } from "../harnesses/codex/index.ts";
import { hermes } from "../harnesses/hermes/index.ts";
import { type EngineOptions, HarnessEngine } from "./engine.ts";

export { type EngineOptions, type HandedOver, HarnessEngine, type TurnOutcome } from "./engine.ts";

export class ClaudeCodeEngine extends HarnessEngine {
  constructor(options: EngineOptions) {
    super(claudeCode, options);
  }
}

export class CodexEngine extends HarnessEngine {
  constructor(options: EngineOptions) {
    super(codex, options);
  }
}

export class HermesEngine extends HarnessEngine {
  constructor(options: EngineOptions) {
    super(hermes, options);
  }
}
