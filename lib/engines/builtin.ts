/**
 * The engines of the built-in harnesses by name, as the package exported them before a harness was a
 * descriptor (README, "Library"): each is `HarnessEngine` over one descriptor. The one file outside the
 * harness folders and the built-in list that names harnesses (tests/harness-names.test.ts keeps it, for code
 * written against these names); a harness added since has no class of its own: `new HarnessEngine(harness)`.
 */
import { claudeCode } from "../harnesses/claude-code/index.ts";
import { codex } from "../harnesses/codex/index.ts";
import { hermes } from "../harnesses/hermes/index.ts";
import { type EngineOptions, HarnessEngine } from "./engine.ts";

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
