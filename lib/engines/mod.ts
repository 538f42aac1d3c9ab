/**
 * Engines: each runs one turn at a time through a harness's binary with LazyBridge's alias rules (see
 * engine.ts), for any harness whose descriptor says how (`new HarnessEngine(harness, options)`); the built-in
 * ones keep their names too (builtin.ts).
 */
export { type EngineOptions, type HandedOver, HarnessEngine, type TurnOutcome } from "./engine.ts";
export * from "./builtin.ts";
export { engineSummarizer, type SummarizerPlace, summarizingHarnesses } from "./summarizer.ts";
